package switching

import (
	"slices"

	"netsim/kernel"
	"netsim/routing"
)

// request is a waiting head that selected an output it may start on now,
// for a separable allocator (match): its lane, input port, the output
// port, VL and priority its selection chose.
type request struct {
	lane, in, port, outVL int32
	prio                  routing.Priority
	// matched says the allocator granted it; picked that an input
	// picked it in the current round (matchInputFirst).
	matched, picked bool
}

// allocate runs one cycle of a separable allocator (AllocISLIP,
// AllocInputFirst) over the eligible waiting heads: each selects its
// output as under oldest-first allocation, those whose output and input
// are free now request it, the allocator matches requests to outputs in
// up to Iterations rounds, and the matched heads start. A head that
// requested and lost tries again in the next cycle. It reports whether a
// head started.
func (s *Switch) allocate(now kernel.Time, next *kernel.Time) bool {
	reqs := s.reqs[:0]
	for _, key := range s.eligibleOldestFirst(now, next) {
		li := laneOf(key)
		port, ovl, prio := s.selectNow(now, li, next)
		if port < 0 {
			continue
		}
		reqs = append(reqs, request{lane: li, in: s.portOf(li), port: port, outVL: int32(ovl), prio: prio})
	}
	s.reqs = reqs
	if len(reqs) == 0 {
		return false
	}
	for i := range reqs {
		if s.sh != nil {
			s.inCap[reqs[i].in] = int8(min(len(s.outDone), 127)) // the outputs read the shared memory
			continue
		}
		busy, _ := s.feeding(reqs[i].in, now)
		s.inCap[reqs[i].in] = int8(s.speedup - busy)
	}
	if s.alloc == AllocISLIP {
		s.matchISLIP()
	} else {
		s.matchInputFirst()
	}
	moved := false
	for i := range reqs {
		r := &reqs[i]
		if r.matched && s.vq != nil && s.eligibleAt(r.lane, now) > now {
			r.matched = false // another packet of its buffer was granted first (VOQ, speedup above 1)
		}
		if !r.matched {
			// It lost this cycle: its output or input went to another
			// head, or the iterations ran out. It selects again next
			// cycle, when the outputs granted now are busy with runs.
			s.unpark(r.lane)
			*next = min(*next, now+1)
			continue
		}
		s.setWaiting(r.lane, false)
		s.grant(now, r.port, r.outVL, r.prio, r.lane, next)
		moved = true
	}
	for i := range reqs {
		s.outDone[reqs[i].port] = false
	}
	return moved
}

// after returns how far x comes after the pointer ptr, cyclically among n.
func after(x, ptr, n int32) int32 {
	d := x - ptr
	if d < 0 {
		d += n
	}
	return d
}

// matchISLIP matches s.reqs by iSLIP (McKeown 1999): in each round, every
// unmatched output grants the requesting input that comes first from its
// grant pointer, and every input accepts, up to the runs it may still
// feed, the granting outputs that come first from its accept pointer. The
// pointers move one past the accepted partner, in the first round only,
// so an output keeps serving an input until that input accepts it. Among
// an input's requests for one output, the oldest head goes (s.reqs is
// oldest first).
func (s *Switch) matchISLIP() {
	reqs, n := s.reqs, int32(len(s.out))
	for iter := 0; iter < s.iterations; iter++ {
		// Grant: each output's request whose input comes first from the
		// output's pointer.
		grants := s.grants[:0]
		for i := range reqs {
			r := &reqs[i]
			if r.matched || s.outDone[r.port] || s.inCap[r.in] == 0 {
				continue
			}
			switch g := s.outGrant[r.port]; {
			case g < 0:
				s.outGrant[r.port] = int32(i)
				grants = append(grants, r.port)
			case after(r.in, s.outPtr[r.port], n) < after(reqs[g].in, s.outPtr[r.port], n):
				s.outGrant[r.port] = int32(i)
			}
		}
		s.grants = grants
		if len(grants) == 0 {
			return
		}
		// Accept: each input takes its grants in order from its pointer,
		// as many as it may feed runs.
		slices.SortFunc(grants, func(a, b int32) int {
			ra, rb := &reqs[s.outGrant[a]], &reqs[s.outGrant[b]]
			if ra.in != rb.in {
				return int(ra.in - rb.in)
			}
			return int(after(a, s.inPtr[ra.in], n) - after(b, s.inPtr[ra.in], n))
		})
		prev := int32(-1)
		for _, o := range grants {
			r := &reqs[s.outGrant[o]]
			s.outGrant[o] = -1
			if s.inCap[r.in] == 0 {
				continue // the grant is declined: o is free for the next round
			}
			if iter == 0 && r.in != prev {
				s.outPtr[o] = (r.in + 1) % n
				s.inPtr[r.in] = (o + 1) % n
			}
			prev = r.in
			r.matched, s.outDone[o] = true, true
			s.inCap[r.in]--
		}
	}
}

// matchInputFirst matches s.reqs by a separable input-first allocator (as
// BookSim's separable_input_first): in each round, every input with runs
// to spare picks, among its requests for outputs not yet matched, the
// lanes that come first from its pointer (as many as it may feed runs,
// each for another output), and every output takes, among the inputs
// that picked it, the one that comes first from its pointer. Pointers
// move one past the winner, in the first round only.
func (s *Switch) matchInputFirst() {
	reqs, n, vls := s.reqs, int32(len(s.out)), s.lpp
	for iter := 0; iter < s.iterations; iter++ {
		// Input arbitration: the requests of each input, by lane from the
		// input's pointer.
		order := s.picks[:0]
		for i := range reqs {
			if r := &reqs[i]; !r.matched && !s.outDone[r.port] && s.inCap[r.in] > 0 {
				order = append(order, int32(i))
			}
		}
		if len(order) == 0 {
			s.picks = order
			return
		}
		slices.SortFunc(order, func(a, b int32) int {
			ra, rb := &reqs[a], &reqs[b]
			if ra.in != rb.in {
				return int(ra.in - rb.in)
			}
			return int(after(ra.lane%vls, s.inPtr[ra.in], vls) - after(rb.lane%vls, s.inPtr[ra.in], vls))
		})
		grants := s.grants[:0]
		for k, start := 0, 0; k < len(order); k++ {
			r := &reqs[order[k]]
			if k > 0 && reqs[order[k-1]].in != r.in {
				start = k
			}
			// Up to inCap picks per input, each for another output.
			picked, dup := int8(0), false
			for _, j := range order[start:k] {
				if q := &reqs[j]; q.picked {
					picked++
					dup = dup || q.port == r.port
				}
			}
			if picked >= s.inCap[r.in] || dup {
				continue
			}
			r.picked = true
			// Output arbitration: the pick whose input comes first from
			// the output's pointer.
			switch g := s.outGrant[r.port]; {
			case g < 0:
				s.outGrant[r.port] = order[k]
				grants = append(grants, r.port)
			case after(r.in, s.outPtr[r.port], n) < after(reqs[g].in, s.outPtr[r.port], n):
				s.outGrant[r.port] = order[k]
			}
		}
		for _, o := range grants {
			r := &reqs[s.outGrant[o]]
			s.outGrant[o] = -1
			if iter == 0 {
				s.outPtr[o] = (r.in + 1) % n
				s.inPtr[r.in] = (r.lane%vls + 1) % vls
			}
			r.matched, s.outDone[o] = true, true
			s.inCap[r.in]--
		}
		for _, j := range order {
			reqs[j].picked = false
		}
		s.picks, s.grants = order, grants
	}
}
