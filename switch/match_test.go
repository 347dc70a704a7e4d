package switching

import "testing"

// matcher returns a switch holding only what the separable allocators
// use: ports input and output ports with vls lanes each, each input able
// to start speedup runs.
func matcher(ports, vls, speedup int, a Allocator, iterations int) *Switch {
	s := &Switch{vls: int32(vls), slots: 1, lpp: int32(vls), lanePorts: lanePorts(int32(vls)), speedup: int32(speedup), alloc: a, iterations: iterations,
		out: make([]outPort, ports), inCap: make([]int8, ports), inPtr: make([]int32, ports),
		outDone: make([]bool, ports), outGrant: make([]int32, ports), outPtr: make([]int32, ports)}
	for i := range s.outGrant {
		s.outGrant[i] = -1
	}
	return s
}

// matchOnce runs one cycle of s's allocator on requests (input, output)
// pairs, lane = input·VLs + output mod VLs, and returns the pairs matched.
func (s *Switch) matchOnce(pairs [][2]int32) [][2]int32 {
	s.reqs = s.reqs[:0]
	for _, p := range pairs {
		s.reqs = append(s.reqs, request{lane: p[0]*s.vls + p[1]%s.vls, in: p[0], port: p[1]})
		s.inCap[p[0]] = int8(s.speedup)
	}
	if s.alloc == AllocISLIP {
		s.matchISLIP()
	} else {
		s.matchInputFirst()
	}
	var out [][2]int32
	for _, r := range s.reqs {
		if r.matched {
			out = append(out, [2]int32{r.in, r.port})
		}
		s.outDone[r.port] = false
	}
	return out
}

// all returns requests from every input to every output of an n×n switch.
func all(n int32) [][2]int32 {
	var pairs [][2]int32
	for i := range n {
		for o := range n {
			pairs = append(pairs, [2]int32{i, o})
		}
	}
	return pairs
}

// checkMatching fails unless m matches each input and output at most
// speedup and once, and only as requested.
func checkMatching(t *testing.T, name string, m, pairs [][2]int32, speedup int) {
	t.Helper()
	ins, outs := map[int32]int{}, map[int32]int{}
	for _, p := range m {
		ins[p[0]]++
		outs[p[1]]++
		if ins[p[0]] > speedup || outs[p[1]] > 1 {
			t.Errorf("%s: %v is not a matching", name, m)
		}
		found := false
		for _, q := range pairs {
			found = found || q == p
		}
		if !found {
			t.Errorf("%s: %v matches %v, not requested", name, m, p)
		}
	}
}

// TestISLIPDesynchronizes checks iSLIP's known behaviour under requests
// from every input to every output of a 4×4 switch: one round matches one
// pair in the first cycle (every output grants input 0), and the pointers
// then desynchronise, so from the fourth cycle on every cycle is a full
// matching; four rounds find a full matching at once.
func TestISLIPDesynchronizes(t *testing.T) {
	s := matcher(4, 4, 1, AllocISLIP, 1)
	want := []int{1, 2, 3, 4, 4, 4, 4, 4}
	for c, w := range want {
		m := s.matchOnce(all(4))
		checkMatching(t, "islip×1", m, all(4), 1)
		if len(m) != w {
			t.Errorf("islip×1, cycle %d: %d pairs matched %v, want %d", c, len(m), m, w)
		}
	}
	s = matcher(4, 4, 1, AllocISLIP, 4)
	if m := s.matchOnce(all(4)); len(m) != 4 {
		t.Errorf("islip×4: %v, want a full matching", m)
	}
}

// TestInputFirst checks the separable input-first allocator: one round
// with every input's pointer on lane 0 sends them all to output 0, one
// wins and the pointers move on; more rounds fill the other outputs; an
// input with a speedup of 2 may win two outputs.
func TestInputFirst(t *testing.T) {
	s := matcher(4, 4, 1, AllocInputFirst, 1)
	m := s.matchOnce(all(4))
	checkMatching(t, "input-first×1", m, all(4), 1)
	if len(m) != 1 || m[0] != [2]int32{0, 0} {
		t.Errorf("input-first×1, first cycle: %v, want [[0 0]]", m)
	}
	s = matcher(4, 4, 1, AllocInputFirst, 4)
	if m := s.matchOnce(all(4)); len(m) != 4 {
		t.Errorf("input-first×4: %v, want a full matching", m)
	}
	// Two inputs with speedup 2, each requesting outputs 0 and 1.
	pairs := [][2]int32{{0, 0}, {0, 1}, {1, 0}, {1, 1}}
	for _, a := range []Allocator{AllocInputFirst, AllocISLIP} {
		s = matcher(2, 2, 2, a, 2)
		m = s.matchOnce(pairs)
		checkMatching(t, a.String()+" speedup 2", m, pairs, 2)
		if len(m) != 2 {
			t.Errorf("%s with speedup 2: %v, want both outputs matched", a, m)
		}
	}
}

// TestParseAllocatorAndBuffers checks that the allocators and buffer
// organisations parse from their names and refuse others with the key.
func TestParseAllocatorAndBuffers(t *testing.T) {
	for _, a := range Allocators() {
		if got, err := ParseAllocator(a.String()); err != nil || got != a {
			t.Errorf("ParseAllocator(%q) = %v, %v", a, got, err)
		}
	}
	for _, b := range BuffersKinds() {
		if got, err := ParseBuffers(b.String()); err != nil || got != b {
			t.Errorf("ParseBuffers(%q) = %v, %v", b, got, err)
		}
	}
	if _, err := ParseAllocator("wavefront"); err == nil || err.Error() != `allocator: unknown allocator "wavefront" (known: oldest-first, islip, input-first)` {
		t.Errorf("ParseAllocator(wavefront): %v", err)
	}
	if _, err := ParseBuffers("output"); err == nil || err.Error() != `buffers: unknown buffer organisation "output" (known: fifo, voq, shared)` {
		t.Errorf("ParseBuffers(output): %v", err)
	}
}

// TestSlots checks the lanes a VOQ buffer keeps: one per packet it may
// hold at once, plus the arriving one, the one being read and one given
// back in the cycle; a FIFO keeps one, as long as the buffer.
func TestSlots(t *testing.T) {
	for _, c := range []struct {
		p            Params
		slots, flits int
	}{
		{Params{Buffer: 64, ShortestPacket: 16, LongestPacket: 16}, 1, 64},
		{Params{Buffers: BuffersVOQ, Buffer: 64, ShortestPacket: 16, LongestPacket: 16}, 7, 16},
		{Params{Buffers: BuffersVOQ, Buffer: 32, ShortestPacket: 1, LongestPacket: 1}, 35, 1},
		{Params{Buffers: BuffersVOQ, Buffer: 8, ShortestPacket: 1, LongestPacket: 100}, 11, 8},
		{Params{Buffers: BuffersVOQ, Buffer: 8}, 11, 8},
	} {
		if got := c.p.Slots(); got != c.slots {
			t.Errorf("%+v: %d slots, want %d", c.p, got, c.slots)
		}
		if got := c.p.slotFlits(); got != c.flits {
			t.Errorf("%+v: %d flits a lane, want %d", c.p, got, c.flits)
		}
	}
}
