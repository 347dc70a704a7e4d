// Package switching models an input-queued switch.
//
// Each input port has one FIFO per virtual lane (VL), so head-of-line
// blocking is modelled. A packet whose head reaches the front of its FIFO is
// routed (its candidate ports come from the routing function, after the
// routing delay counted from the head's arrival, so routing overlaps
// queueing) and then competes for an output VL: the selection function takes
// the candidate with the highest priority whose output VL is free and whose
// flow control admits it — the whole packet under virtual cut-through, one
// flit under wormhole — then the one with the most free space downstream,
// then the output with the fewest packets in progress, and breaks remaining
// ties at random from the switch's seeded stream. That is SelectCredits,
// the default; SelectIdle also passes over candidates whose port is in the
// middle of another packet's run (see Selection).
//
// Allocation is a greedy maximal matching, oldest first: each cycle the
// eligible waiting heads, in order of the cycle they became eligible
// (their age at the front of their FIFO, which waiting for a busy output
// does not reset), start on the output they selected if that output and
// their input are still free in the cycle. Equal ages go in lane order from
// a round-robin pointer that moves past the first lane that won. So heads
// contending for one output take turns packet by packet, whatever else the
// switch grants: with the pointer alone, a flow whose next head became
// eligible in the same cycle as a long-waiting rival won whenever unrelated
// grants had left the pointer just before it, and kept the output until it
// ended. (A single-pass separable allocator was tried and lost a third of
// the throughput of a crossbar with 8 VLs: outputs picked lanes of the same
// input, and all but one idled.)
//
// Once granted, a packet owns its output VL until its tail has left.
//
// Flits move in runs. When an output starts sending from a lane at cycle t,
// it commits to a run of k ≥ 1 flits of the lane's head packet, sent at
// t, t+1, …, t+k−1: as many as it can send without a stall, from what is
// known at t — the packet's flits in the lane that are in the buffer one
// cycle after another from t on, up to the packet's tail (but for flits
// that joined that run by a push in cycle t itself, flit.Queue.FrontRun,
// so that the order of the ticks in a cycle does not matter), and, unless the
// packet's room downstream was reserved at its grant (virtual cut-through),
// the credits held at t (one flit under STOP/GO, where a STOP may come in
// any cycle). The output is busy until t+k and the input port is connected
// to it meanwhile: an input port feeds at most Speedup runs at once (the
// crossbar speedup; 1 is a plain crossbar), a lane at most one. The run
// reaches the next buffer as one run, the first flit after the crossbar
// delay plus the link latency, and its slots upstream free one per cycle.
// Timing is exact per flit; the one modelling choice is that an input stays
// connected to an output for a whole run, where a per-flit crossbar could
// switch it to another output between two flits.
//
// A route probe (flit.Probe) is marked flit.Blocked when the route it
// tries is in use by another flow (seed 001 §4.3): when its head cannot
// leave when it is due, for want of room downstream or because its output
// is held by, or busy with, a packet of another source; or when it gets
// an output whose last packet, from another source, left less than that
// packet's length ago (a stream's back-to-back packets leave gaps of a few
// cycles that a probe must not take for a free link). The source's own
// packets do not block its probes: every route to a destination shares
// the link to the destination host with them.
//
// When a run ends the output arbitrates again. Link arbitration is by
// packet, as on InfiniBand: the output continues the packet of its last run
// if its next flits are there, and otherwise turns round-robin to another
// packet in progress that can move, so stalls are filled without
// interleaving packets otherwise; an output with nothing to send takes new
// grants.
//
// Under SelectCredits, a waiting head whose selected output is busy with a
// run waits for the run's end and then selects again; under SelectIdle a
// busy output is not selected, and a head none of whose candidates is
// available waits for the first of their runs to end.
//
// The switch is event-driven: it ticks when a run ends, a run arrives for a
// packet in progress, a routing delay expires, flow control reports room
// on one of its outputs, or the credits on their way will admit a waiting
// head (not for every credit: a cut-through head needs a packet's worth),
// and sleeps otherwise. A tick that finds nothing to do changes nothing, so
// results do not depend on how often a switch is woken. A waiting head
// whose selection failed is passed over until that could change: an
// output VL of one of its candidate ports is set free, flow control on
// one reports room (each output port has its own flit.Sender, Sender),
// the credits on their way will admit it, or (SelectIdle) the run of a
// busy candidate port ends. When one of its output VLs changes, the head
// first looks at that output VL alone (its port is in the parking record;
// the routing's OutVL names the VL): if it is still not available to the
// head (held again, its credits still on their way or, under SelectIdle,
// its port busy with a run), the head stays parked, its retry time
// brought forward to when those credits are back or that run ends if
// that is sooner, and it selects again, routing included, only otherwise
// (on a switch of more than 61 ports, whose ports share parking bits, it
// selects again at once). Under a herd, where many heads wait for the
// same few outputs, most changes are of that kind (on the 16,384-host
// Dragonfly with G at uniform 0.5, 10,000 cycles, 67.8 million selections
// of which 44.6 million failed became 44.2 million with 21.3 million
// failed). A head whose routing gives it one candidate
// port cannot go while that port is busy with a run, whatever its output
// VL and flow control say: under either selection it waits for the run's
// end without selecting (only route probes, whose selection marks them,
// select anyway). The scan for waiting heads passes over those of an
// input port that feeds all the runs it may without looking at them, and
// a head that cannot go before a known cycle less than sleepSlots cycles
// ahead (its routing delay, the end of its chosen output's run, or of
// the runs its input port feeds) sleeps until then, out of the bitmap
// the scan reads: on the 16,384-host SF×FF product with DOR at uniform
// 0.5 (10,000 cycles), 87 of the 127 million heads the scan looked up
// were not eligible yet, and 98 of the 199 million input ports it
// checked were busy.
//
// A network's switches keep their ports, lanes and buffers in shared
// huge-page slabs (Storage), and each input port keeps the flow-control
// state of the link into it (flowctl.Link): the simulator's speed is bound
// by memory latency, and these layouts keep the records touched for a flit
// few and close together.
package switching

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"netsim/flit"
	"netsim/flowctl"
	"netsim/internal/hugemem"
	"netsim/kernel"
	"netsim/routing"
)

// Mode is the switching technique.
type Mode uint8

const (
	// CutThrough is virtual cut-through: a packet starts on an output only
	// when the next buffer has room for all of it.
	CutThrough Mode = iota
	// Wormhole lets a packet start with room for one flit; a blocked packet
	// stays spread over the buffers along its path.
	Wormhole
)

// ParseMode parses a switching mode as written in experiment files.
func ParseMode(s string) (Mode, error) {
	switch s {
	case "cut-through", "vct", "virtual-cut-through":
		return CutThrough, nil
	case "wormhole":
		return Wormhole, nil
	}
	return 0, fmt.Errorf("switching: unknown mode %q (known: cut-through, wormhole)", s)
}

// Selection is the selection function of seed 004 §3.1: how a switch
// chooses one output among the candidates the routing gives a head packet.
// Both take the highest priority first, then the most free space
// downstream, then the fewest packets in progress, then a fair coin; they
// differ in which candidates are available.
type Selection uint8

const (
	// SelectCredits counts a candidate available when its output VL is
	// free (no packet in progress holds it) and has credits for the packet
	// (for one flit under wormhole). A head whose choice is busy sending
	// another packet's run waits for the run's end and chooses again, so
	// a busy port with credits keeps the heads that prefer it: adaptive
	// routings leave it only when its VL is held or its credits run out.
	SelectCredits Selection = iota
	// SelectIdle also requires the output port to be able to start the
	// packet now, not in the middle of another packet's run: a head takes
	// the best candidate it can start on at once rather than wait for a
	// busy better one, and waits only when no candidate is available
	// (each held, closed by flow control or busy).
	SelectIdle
)

// ParseSelection parses a selection function as written in experiment
// files: "credits" (SelectCredits) or "idle" (SelectIdle).
func ParseSelection(s string) (Selection, error) {
	for sel := SelectCredits; sel <= SelectIdle; sel++ {
		if sel.String() == s {
			return sel, nil
		}
	}
	return 0, fmt.Errorf("selection: unknown selection function %q (known: credits, idle)", s)
}

// String returns the selection function's name in experiment files.
func (s Selection) String() string {
	switch s {
	case SelectCredits:
		return "credits"
	case SelectIdle:
		return "idle"
	}
	return fmt.Sprintf("Selection(%d)", uint8(s))
}

// Limits of a switch, from the compact per-lane state.
const (
	// MaxLanes is the largest number of ports × VLs.
	MaxLanes = 1<<15 - 1
	// MaxPacketFlits is the longest packet, in flits.
	MaxPacketFlits = 1<<16 - 1
)

// Params configure a switch.
type Params struct {
	// ID is the switch index, also the Target of its tick events.
	ID int
	// Ports and VLs size the switch.
	Ports, VLs int
	// Buffer is the input buffer per port and VL, in flits.
	Buffer int
	Mode   Mode
	// Speedup is the number of runs an input port may feed at once (the
	// flits it may forward per cycle).
	Speedup int
	// RoutingDelay is the cycles from a head's arrival to its routing.
	RoutingDelay int
	// FlitDelay is the cycles from leaving this switch to being in the next
	// buffer (crossbar delay plus link latency).
	FlitDelay int
	// TickKind is the event kind the owner dispatches to Tick.
	TickKind uint8
	// MaxRun, if positive, caps the flits of a run: a testing aid, where 1
	// sends flit by flit to compare with runs.
	MaxRun int
	// Selection is the selection function; the zero value is
	// SelectCredits.
	Selection Selection
	// NoPark, a testing aid, looks at every waiting head in every tick
	// and selects again for every eligible one, never passing over a
	// parked or sleeping one: results must not change.
	NoPark bool
}

const (
	idle    uint8 = iota // no flit in the FIFO
	waiting              // head packet waiting for an output VL
	active               // head packet granted, flits flowing
)

// lane is one VL of one input port.
type lane struct {
	q flit.Queue
	// since is when the waiting head first became eligible, modulo 2³²:
	// its age decides its turn (oldest first). Unlike its eligible time
	// (Switch.elig) it does not move when the head waits for a busy
	// output's run to end.
	since uint32
	// state is idle, waiting or active.
	state uint8
	// outVL is the output VL granted to an active head.
	outVL uint8
	// sent counts the flits of the head packet already forwarded, of flits.
	sent, flits uint16
	// reserved says the packet's room downstream was taken at the grant.
	reserved bool
	// probe says the head packet is a route probe, and dlid is its
	// destination: with flits, what selecting an output needs of the
	// packet, copied when it becomes the head so selection, which a
	// waiting head may run many times, does not visit the packet.
	probe bool
	dlid  int32
	// sl is the head packet's service level and src its source host,
	// copied with dlid: the routing takes the SL, route probes compare
	// sources (markProbe, grant).
	sl  uint8
	src int32
	// only is 1 + the head packet's one candidate port, if the routing
	// gave it one when it was last selected for, else 0: while that port
	// is busy with a run the head cannot go, and it waits for the run's
	// end without selecting (selectOutput, onlyBusy).
	only uint16
	_    [1]byte // 64 bytes: a lane is one cache line
}

// park is what passing over a parked head needs, kept per lane apart from
// the lane records (Switch.parks), four to a cache line: a tick looks it
// up for every eligible waiting lane, most of which stay parked.
//
// A head is parked when its last selection failed, every candidate's
// output VL held or its flow control closed (or, under SelectIdle, its
// port in the middle of a run). Until one of the
// candidates' output VLs changes after the switch's generation gen
// (see Switch.gen, stillParked), selecting again before retry (modulo
// 2³²) would fail alike, and the head is passed over. A change need not
// end the parking either: if the output VL that changed is still not
// available to the head (held again, its credits not yet back or, under
// SelectIdle, its port busy with a run), the head stays parked, its retry
// brought forward to when those credits are back or that run ends, if
// sooner (stillClosed).
type park struct {
	// bits has a bit per candidate port (Switch.portBit) and the flags
	// parkedBit, fcBlockedBit (flow control closed a candidate) and
	// noRetryBit (no retry time: only a change of the ports helps).
	bits       uint64
	gen, retry uint32
}

// Flags of park.bits, above the ports' bits.
const (
	parkedBit    = 1 << 63
	fcBlockedBit = 1 << 62
	noRetryBit   = 1 << 61
	portBits     = 61 // bits for output ports, which share them in turn
)

// eligibleAt returns when the waiting head of lane li may first be
// allocated.
func (s *Switch) eligibleAt(li int32, now kernel.Time) kernel.Time {
	return now + kernel.Time(int32(s.elig[li]-uint32(now)))
}

// retryAt returns the retry time of a parked head, kernel.Never if it
// waits for one of its ports to change.
func (pk *park) retryAt(now kernel.Time) kernel.Time {
	if pk.bits&noRetryBit != 0 {
		return kernel.Never
	}
	return now + kernel.Time(int32(pk.retry-uint32(now)))
}

// inRun is a run an input port feeds: the lane it comes from and the cycle
// it ends. A port's entry in Switch.times is Speedup+1 of them: when the
// output's run ends, then the input's runs.
type inRun struct {
	end  kernel.Time
	lane int32
}

type outPort struct {
	// The first 64 bytes hold what moving a flit of a packet in progress
	// needs; the rest is used when packets start or flow control is
	// consulted.

	// active lists the lanes with a packet in progress here, in grant order.
	active [flowctl.MaxVLs]int16
	to     flit.Receiver
	n      int32 // packets in progress: active[:n]
	rr     int16 // the packet in progress being sent: active[rr]
	toPort int16
	busy   bool // listed in Switch.busy
}

// outSel is what selecting an output port looks up, kept apart from the
// port record (Switch.sel): the link's flow control and the output VLs
// held.
type outSel struct {
	fc   flowctl.Control // the link out of this port
	held uint16          // bit v set while a packet holds output VL v
	// owner is the source host of the packets granted here since the
	// output was last without a packet in progress, if they all come from
	// one host, else −1; freed is the cycle the output's last packet tail
	// left, modulo 2³², and lastLen that packet's length. Only route probes
	// look at them (markProbe, grant); they fill the record to 32 bytes,
	// two to a cache line.
	lastLen uint16
	owner   int32
	freed   uint32
}

// closedOut is an output port and VL whose flow control does not admit
// the packet being selected for.
type closedOut struct{ port, vl int32 }

// Switch is one switch. It is not safe for concurrent use; a simulation is
// single-threaded.
type Switch struct {
	id           int32
	eng          *kernel.Engine
	pool         *flit.Pool
	route        routing.Routing
	rng          kernel.RNG
	mode         Mode
	selection    Selection
	noPark       bool
	vls          int32
	speedup      int32
	maxRun       int32
	routingDelay kernel.Time
	flitDelay    kernel.Time

	alarm   kernel.Alarm
	blocked bool // last tick found a packet held back by flow control
	// gen counts the changes that may let a parked head go before its
	// retry time: an output VL set free, and news of room downstream
	// (Unblock). portGen holds, per output port (on a switch of more
	// than portBits ports several share an entry, portBit), the
	// generation of the last change on any of its VLs, vlGen per output
	// VL (port·VLs + VL) that of its last change, and allGen that of the
	// last news that names no port (Unblock).
	gen, allGen uint32
	portGen     []uint32
	vlGen       []uint32
	senders     []portSender // Sender's per output port

	// in holds the flow-control state of the link into each port, kept
	// here so freeing a slot touches memory the switch holds anyway.
	in  []flowctl.Link
	ups []flit.Sender // who sends on the link into each port
	out []outPort
	sel []outSel // per output port
	// times holds, per port, when the output's current run ends and the
	// runs the input feeds (Speedup+1 entries), apart from the port
	// records so a tick finds what is due without touching them.
	times []inRun
	lanes []lane // port·VLs + vl
	// elig holds, per lane, when its waiting head may first be allocated,
	// modulo 2³², apart from the lanes: each tick looks it up for every
	// waiting lane whose input port may feed a run, most of which cannot
	// move yet.
	elig []uint32
	// parks holds, per lane, what passing over its parked head needs.
	parks []park
	// runs holds the lanes' rings, ringLen runs each; buffer is the
	// capacity of a lane in flits.
	runs    []flit.Run
	ringLen int32
	buffer  int32
	// waiting has a bit set for each lane in state waiting and not asleep;
	// nWaiting counts the lanes in state waiting, ptr is the round-robin
	// pointer, order a scratch list (eligibleOldestFirst).
	waiting  []uint64
	nWaiting int32
	// sleep holds the waiting lanes that may not be allocated before a
	// cycle less than sleepSlots cycles ahead (their eligible time, or
	// when their input port may feed a run again), by that cycle modulo
	// sleepSlots: sleepSlots bitmaps of lanes like waiting, one after
	// another; sleepMask has a bit set per slot in use, and woke is the
	// last cycle whose slot was emptied into waiting. A tick then passes
	// over a head waiting for its routing, for a busy output's run or for
	// its busy input port without looking it up (sleepUntil, sleepRange,
	// wake).
	sleep     []uint64
	sleepMask uint32
	woke      kernel.Time
	ptr       int32
	order     []uint64
	busy      []int32 // output ports with packets in progress
	cand      []routing.Candidate
	closed    []closedOut // selectOutput's candidates closed by flow control
	busyCand  []int32     // selectOutput's candidate ports passed over mid-run (SelectIdle)

	// FlitHops counts flits this switch has sent.
	FlitHops int64
	err      error
}

// Err returns the first routing failure the switch met, if any; the switch
// stops the engine when it meets one.
func (s *Switch) Err() error { return s.err }

// Storage holds the ports, lanes and flit buffers of many switches in a few
// large arrays on huge pages: a network's per-port state is touched at
// random every cycle, and spread over small allocations nearly every access
// would also miss the TLB.
type Storage struct {
	in    []flowctl.Link
	out   []outPort
	sel   []outSel
	times []inRun
	lanes []lane
	elig  []uint32
	parks []park
	runs  []flit.Run
}

// NewStorage allocates the storage of switches with the given parameters.
func NewStorage(params []Params) *Storage {
	var ports, times, lanes, slots int
	for _, p := range params {
		ports += p.Ports
		times += p.Ports * (max(p.Speedup, 1) + 1)
		lanes += p.Ports * p.VLs
		slots += p.Ports * p.VLs * flit.RingRuns(p.Buffer)
	}
	return &Storage{
		in:    hugemem.Make[flowctl.Link](ports),
		out:   hugemem.Make[outPort](ports),
		sel:   hugemem.Make[outSel](ports),
		times: hugemem.Make[inRun](times),
		lanes: hugemem.Make[lane](lanes),
		elig:  hugemem.Make[uint32](lanes),
		parks: hugemem.Make[park](lanes),
		runs:  hugemem.Make[flit.Run](slots),
	}
}

// take removes the storage of the switch with parameters p from st.
func (st *Storage) take(p Params) (in []flowctl.Link, out []outPort, sel []outSel, times []inRun, lanes []lane, elig []uint32, parks []park, runs []flit.Run) {
	n, l, k := p.Ports, p.Ports*p.VLs, p.Ports*p.VLs*flit.RingRuns(p.Buffer)
	m := n * (max(p.Speedup, 1) + 1)
	in, st.in = st.in[:n:n], st.in[n:]
	out, st.out = st.out[:n:n], st.out[n:]
	sel, st.sel = st.sel[:n:n], st.sel[n:]
	times, st.times = st.times[:m:m], st.times[m:]
	lanes, st.lanes = st.lanes[:l:l], st.lanes[l:]
	elig, st.elig = st.elig[:l:l], st.elig[l:]
	parks, st.parks = st.parks[:l:l], st.parks[l:]
	runs, st.runs = st.runs[:k:k], st.runs[k:]
	return
}

// New returns a switch with empty buffers, kept in st (nil allocates the
// switch's own). Connect every used port before the simulation starts.
func New(p Params, eng *kernel.Engine, pool *flit.Pool, r routing.Routing, rng kernel.RNG, st *Storage) *Switch {
	if st == nil {
		st = NewStorage([]Params{p})
	}
	in, out, sel, times, lanes, elig, parks, runs := st.take(p)
	s := &Switch{
		id:           int32(p.ID),
		eng:          eng,
		pool:         pool,
		route:        r,
		rng:          rng,
		mode:         p.Mode,
		selection:    p.Selection,
		noPark:       p.NoPark,
		vls:          int32(p.VLs),
		speedup:      int32(max(p.Speedup, 1)),
		routingDelay: kernel.Time(p.RoutingDelay),
		flitDelay:    kernel.Time(p.FlitDelay),
		alarm:        kernel.NewAlarm(eng, kernel.Event{Kind: p.TickKind, Target: int32(p.ID)}),
		in:           in,
		ups:          make([]flit.Sender, p.Ports),
		out:          out,
		sel:          sel,
		times:        times,
		lanes:        lanes,
		elig:         elig,
		parks:        parks,
		portGen:      make([]uint32, portBits),
		vlGen:        make([]uint32, p.Ports*p.VLs),
		senders:      make([]portSender, p.Ports),
		waiting:      make([]uint64, (p.Ports*p.VLs+63)/64),
		sleep:        make([]uint64, sleepSlots*((p.Ports*p.VLs+63)/64)),
		cand:         make([]routing.Candidate, 0, p.Ports),
		closed:       make([]closedOut, 0, p.Ports),
		busyCand:     make([]int32, 0, p.Ports),
	}
	for i := range s.sel {
		s.sel[i].owner = -1
	}
	for i := range s.senders {
		s.senders[i] = portSender{s: s, port: int32(i)}
	}
	s.maxRun = int32(p.MaxRun)
	if s.maxRun <= 0 {
		s.maxRun = MaxPacketFlits
	}
	s.runs, s.ringLen, s.buffer = runs, int32(flit.RingRuns(p.Buffer)), int32(p.Buffer)
	return s
}

// ConnectIn sets up the link arriving at port with flow-control
// parameters fp, from sender up, and returns its flow-control state for the
// sender to use. The switch keeps the state.
func (s *Switch) ConnectIn(port int, fp flowctl.Params, up flit.Sender) (flowctl.Control, error) {
	link := &s.in[port]
	if err := link.Init(fp); err != nil {
		return nil, err
	}
	s.ups[port] = up
	return link, nil
}

// ConnectOut attaches the link leaving port: its flow control and the
// receiver (and its port) at the other end.
func (s *Switch) ConnectOut(port int, fc flowctl.Control, to flit.Receiver, toPort int) {
	s.sel[port].fc = fc
	s.out[port].to = to
	s.out[port].toPort = int16(toPort)
}

// Unblock implements flit.Sender: flow control on some output port may
// let the switch send again at at. Sender(port) tells which port, which
// spares the heads that cannot take it a new selection.
func (s *Switch) Unblock(_ int, at kernel.Time) {
	s.gen++
	s.allGen = s.gen
	if s.blocked {
		s.alarm.Set(at)
	}
}

// Sender returns the flit.Sender of the link leaving port, for the
// receiver at its other end to report room downstream: the switch then
// selects again only for the parked heads that may take that port and
// VL.
func (s *Switch) Sender(port int) flit.Sender { return &s.senders[port] }

// portSender is the flit.Sender of one output port of a switch.
type portSender struct {
	s    *Switch
	port int32
}

// Unblock implements flit.Sender.
func (ps *portSender) Unblock(vl int, at kernel.Time) {
	s := ps.s
	s.outChanged(ps.port, int32(vl))
	if s.blocked {
		s.alarm.Set(at)
	}
}

// outChanged records a change on VL vl of output port p that may let a
// parked head go: the output VL set free, or room downstream.
func (s *Switch) outChanged(p, vl int32) {
	s.gen++
	s.portGen[portBit(p)] = s.gen
	s.vlGen[p*s.vls+vl] = s.gen
}

// portBit returns the entry of output port p in portGen, and its bit in
// park.bits: the ports of a switch share the portBits entries in turn.
func portBit(p int32) uint32 { return uint32(p) % portBits }

// stillParked reports whether the parked head of lane li, pk, would fail
// its selection at now as it did when it was parked: no candidate's
// output VL has been set free or reported room since, or each that has
// is still not available to it (held, closed by flow control or, under
// SelectIdle, its port busy with a run); and no news has come that
// names no port. It then moves the head's parking generation on, so the
// next look is quick, and its retry time to the first at which one of
// the output VLs that changed may open.
func (s *Switch) stillParked(li int32, pk *park, now kernel.Time) bool {
	if pk.gen == s.gen {
		return true
	}
	if d := s.gen - pk.gen; d >= 1<<31 || int32(s.allGen-pk.gen) > 0 {
		return false // (parked too long ago to compare generations)
	}
	var changed uint64
	for m := pk.bits & (1<<portBits - 1); m != 0; m &= m - 1 {
		if b := bits.TrailingZeros64(m); int32(s.portGen[b]-pk.gen) > 0 {
			changed |= 1 << b
		}
	}
	if changed != 0 && !s.stillClosed(li, pk, changed, now) {
		return false
	}
	pk.gen = s.gen
	return true
}

// stillClosed looks again at the candidate ports in changed (bits of
// park.bits) of the parked head of lane li, pk, whose ports have changed
// since it was parked: it reports whether the head's output VL on each
// is still not available to it, as selectOutput would find it, and if so
// lowers pk's retry time to when those closed by flow control or busy
// with a run may open. On a switch with more than portBits ports, where a
// bit does not name one port, it reports false: the head selects again.
func (s *Switch) stillClosed(li int32, pk *park, changed uint64, now kernel.Time) bool {
	if len(s.out) > portBits {
		return false
	}
	l := &s.lanes[li]
	inPort, inVL, sl := int(li/s.vls), int(li%s.vls), int(l.sl)
	need := s.need(l)
	retry := pk.retryAt(now)
	fcBlocked := false
	for ; changed != 0; changed &= changed - 1 {
		p := int32(bits.TrailingZeros64(changed))
		ovl := s.route.OutVL(int(s.id), inPort, inVL, sl, int(p))
		if int32(s.vlGen[p*s.vls+int32(ovl)]-pk.gen) <= 0 {
			continue // another VL of the port changed
		}
		switch s.outAt(now, p, ovl, need) {
		case outHeld:
		case outClosed:
			retry = min(retry, s.sel[p].fc.ReadyAt(now, ovl, need))
			fcBlocked = true
		case outBusy:
			retry = min(retry, s.freeAt(p))
		default:
			return false // available: the head may go
		}
	}
	if fcBlocked {
		pk.bits |= fcBlockedBit
	}
	if retry != kernel.Never {
		pk.bits &^= noRetryBit
		pk.retry = uint32(retry)
	}
	return true
}

// need returns the room downstream the head packet of lane l needs to
// start: all of it under virtual cut-through, one flit under wormhole.
func (s *Switch) need(l *lane) int {
	if s.mode == CutThrough {
		return int(l.flits)
	}
	return 1
}

// outState is what selecting an output finds of a candidate's output VL
// (outAt).
type outState uint8

const (
	outOpen   outState = iota // available
	outHeld                   // a packet in progress holds the output VL
	outClosed                 // its flow control does not admit the head
	outBusy                   // SelectIdle: its port is in the middle of a run
)

// outAt returns the state of VL ovl of output port p for a head needing
// need flits of room at now, looked up in the order selectOutput and
// stillClosed both rely on: held, then flow control, then (SelectIdle)
// the port's run.
func (s *Switch) outAt(now kernel.Time, p int32, ovl, need int) outState {
	o := &s.sel[p]
	switch {
	case o.held&(1<<ovl) != 0:
		return outHeld
	case !o.fc.CanSend(now, ovl, need):
		return outClosed
	case s.selection == SelectIdle && s.freeAt(p) > now:
		return outBusy
	}
	return outOpen
}

// Wake makes the switch tick at at even if it has nothing to do then. Such
// a tick changes nothing; tests use Wake to check that the switch's own
// wake-ups miss nothing.
func (s *Switch) Wake(at kernel.Time) { s.alarm.Set(at) }

// AcceptRun implements flit.Receiver. The packet's DLID, length, SL,
// source and probe flag must be set by then: the switch copies them when
// the packet becomes the head of its lane.
func (s *Switch) AcceptRun(now kernel.Time, port, vl int, pkt int32, arrive kernel.Time, k int) {
	li := int32(port)*s.vls + int32(vl)
	l := &s.lanes[li]
	l.q.Push(s.ring(li), int(s.buffer), pkt, now, arrive, k)
	switch l.state {
	case idle:
		// The previous packet's last run, if still going, left the queue
		// when it started (flits leave it when their run starts).
		s.alarm.Set(s.newHead(li, pkt, arrive, s.runEnd(li, now), now))
	case active:
		s.alarm.Set(arrive)
	}
}

// newHead makes packet pkt, whose head is in the buffer from cycle ready
// on, the waiting head of lane li, and returns when it becomes eligible:
// once routed and once the previous packet's last run, ending at prevEnd,
// has ended. Whether it came in while that packet was still in the queue
// (send) or after (AcceptRun) then does not matter, nor does the order of
// the sender's and the switch's ticks in the cycle.
func (s *Switch) newHead(li, pkt int32, ready, prevEnd, now kernel.Time) kernel.Time {
	l := &s.lanes[li]
	s.setHead(l, pkt)
	l.state = waiting
	at := max(ready+s.routingDelay, prevEnd)
	s.elig[li] = uint32(at)
	l.since = s.elig[li]
	s.setWaiting(li, true)
	s.sleepUntil(li, at, now)
	return at
}

// sleepSlots is the number of cycles ahead a waiting lane may sleep
// (Switch.sleep): the bits of sleepMask.
const sleepSlots = 32

// sleepUntil puts waiting lane li, whose head may not be allocated
// before at (its eligible time), to sleep until then (sleepRange).
func (s *Switch) sleepUntil(li int32, at, now kernel.Time) {
	s.sleepRange(li, li+1, at, now)
}

// sleepRange takes the lanes in [lo, hi) still in the waiting bitmap,
// none of whose heads may be allocated before at, out of it until then,
// if at is less than sleepSlots cycles after now; the caller wakes the
// switch by at. The lanes stay in state waiting (nWaiting).
func (s *Switch) sleepRange(lo, hi int32, at, now kernel.Time) {
	if at <= now || at-now >= sleepSlots || s.noPark {
		return
	}
	slot := int32(at % sleepSlots)
	row := s.sleep[slot*int32(len(s.waiting)):]
	for w := lo / 64; w*64 < hi; w++ {
		m := ^uint64(0)
		if base := w * 64; base < lo {
			m &^= 1<<(lo-base) - 1
		}
		if e := hi - w*64; e < 64 {
			m &= 1<<e - 1
		}
		m &= s.waiting[w]
		s.waiting[w] &^= m
		row[w] |= m
	}
	s.sleepMask |= 1 << slot
}

// wake puts back into the waiting bitmap the sleeping lanes whose slots
// stand for the cycles after the last wake up to now (all of them if
// that is sleepSlots cycles or more), and returns the first cycle after
// now whose slot holds lanes, or kernel.Never. A lane put to sleep
// before the switch's tick in its cycle may come back early, with the
// lanes of an earlier cycle that shares its slot; it then waits in the
// bitmap for its eligible time as a lane not asleep does.
func (s *Switch) wake(now kernel.Time) kernel.Time {
	if s.sleepMask == 0 {
		s.woke = now
		return kernel.Never
	}
	var m uint32
	if d := now - s.woke; d >= sleepSlots {
		m = s.sleepMask
	} else if d > 0 {
		m = bits.RotateLeft32(1<<d-1, int((s.woke+1)%sleepSlots)) & s.sleepMask
	}
	s.woke = now
	n := len(s.waiting)
	for ; m != 0; m &= m - 1 {
		slot := bits.TrailingZeros32(m)
		ws := s.sleep[slot*n : slot*n+n]
		for i, w := range ws {
			s.waiting[i] |= w
			ws[i] = 0
		}
		s.sleepMask &^= 1 << slot
	}
	if s.sleepMask == 0 {
		return kernel.Never
	}
	k := bits.TrailingZeros32(bits.RotateLeft32(s.sleepMask, -int((now+1)%sleepSlots)))
	return now + 1 + kernel.Time(k)
}

// runEnd returns when the run that lane li's input port feeds from it
// ends, or 0 if it feeds none at now.
func (s *Switch) runEnd(li int32, now kernel.Time) kernel.Time {
	sp := s.speedup
	at := li / s.vls * (sp + 1)
	for _, r := range s.times[at+1 : at+1+sp] {
		if r.lane == li && r.end > now {
			return r.end
		}
	}
	return 0
}

// setHead copies what selecting an output needs of packet pkt, the new
// head of lane l.
func (s *Switch) setHead(l *lane, pkt int32) {
	p := s.pool.Get(pkt)
	l.dlid, l.flits, l.probe = p.DLID, uint16(p.Flits), p.Probe&flit.Probe != 0
	l.sl, l.src, l.only = p.SL, p.Src, 0
}

// ring returns lane li's share of the runs slab.
func (s *Switch) ring(li int32) []flit.Run {
	lo := li * s.ringLen
	return s.runs[lo : lo+s.ringLen : lo+s.ringLen]
}

// Buffered returns the number of flits in the switch's input buffers,
// including those on the wire towards them.
func (s *Switch) Buffered() int {
	n := 0
	for i := range s.lanes {
		n += s.lanes[i].q.Len()
	}
	return n
}

// Tick runs one cycle of the switch; the owner calls it for every TickKind
// event addressed to the switch.
func (s *Switch) Tick(now kernel.Time) {
	if !s.alarm.Ring(now) {
		return // superseded by an earlier wake-up
	}
	s.blocked = false
	next := s.wake(now)
	moved := false

	// Phase 1: outputs whose run has ended continue the packets they have
	// in progress. The rotation follows the cycle, not the number of
	// ticks, so a tick that finds nothing to do leaves no trace.
	if n := len(s.busy); n > 0 {
		start := int(now % kernel.Time(n))
		for k := 0; k < n; k++ {
			i := start + k
			if i >= n {
				i -= n
			}
			p := s.busy[i]
			if f := s.freeAt(p); f > now {
				next = min(next, f)
				continue
			}
			if s.transfer(now, p, &next) {
				moved = true
			}
		}
	}

	// Phase 2: eligible waiting heads, oldest first (by when they became
	// eligible; ties in lane order from the round-robin pointer), each
	// start on the output its selection function picks if that output and
	// the head's input are still free (a greedy maximal matching). The
	// pointer then moves past the first lane granted.
	if s.nWaiting > 0 {
		first := int32(-1)
		for _, key := range s.eligibleOldestFirst(now, &next) {
			li := laneOf(key)
			if at := s.inputAt(li, now); at > now {
				next = min(next, at)
				continue
			}
			port, ovl, prio := s.selectOutput(now, li, &next)
			if port < 0 {
				s.markProbe(li, -1)
				continue // no room, no free output VL or (SelectIdle) every port busy: a tick or a credit will tell
			}
			if f := s.freeAt(port); f > now {
				s.markProbe(li, port)
				// The output is busy with a run: the head waits for its end
				// and then selects again. It is not looked at meanwhile, so
				// when it selects does not depend on when the switch ticks.
				s.elig[li] = uint32(f)
				s.sleepUntil(li, f, now)
				next = min(next, f)
				continue
			}
			s.setWaiting(li, false)
			s.grant(now, port, ovl, prio, li, &next)
			moved = true
			if first < 0 {
				first = li
			}
		}
		if first >= 0 {
			s.ptr = (first + 1) % int32(len(s.lanes))
		}
	}

	if moved {
		s.compactBusy()
	}
	if next != kernel.Never {
		s.alarm.Set(next)
	}
}

// onlyBusy returns when the last run on the one candidate port of lane
// li's head ends (at or before now if the port is free), or 0 if the
// head has more candidates or is not known to have one. It returns 0
// too for a route probe, whose selection marks it (markProbe), and on a
// switch that selects for every head in every tick (NoPark): they select
// anyway.
func (s *Switch) onlyBusy(li int32, now kernel.Time) kernel.Time {
	l := &s.lanes[li]
	if l.only == 0 || l.probe || s.noPark {
		return 0
	}
	return s.freeAt(int32(l.only) - 1)
}

// markProbe marks the head packet of lane li Blocked if it is a route
// probe: it could not leave when it was due, on output port (−1: the
// candidates selectOutput left in s.cand, none of which it could take).
// An output held only by packets of the probe's own source does not
// block it: every route to the destination shares the link to the
// destination host with the source's own traffic, so that traffic says
// nothing about the route probed. An output stopped by flow control does.
func (s *Switch) markProbe(li, port int32) {
	l := &s.lanes[li]
	if !l.probe {
		return
	}
	p := s.pool.Get(l.q.Front().Pkt)
	if port >= 0 {
		if s.sel[port].owner != l.src {
			p.Probe |= flit.Blocked
		}
		return
	}
	inPort, inVL := int(li/s.vls), int(li%s.vls)
	for _, c := range s.cand {
		o := &s.sel[c.Port]
		ovl := s.route.OutVL(int(s.id), inPort, inVL, int(l.sl), int(c.Port))
		// Not held and not busy with a run (SelectIdle), the candidate was
		// closed by flow control.
		closed := o.held&(1<<ovl) == 0 && !slices.Contains(s.busyCand, c.Port)
		if closed || o.owner != l.src {
			p.Probe |= flit.Blocked
			return
		}
	}
}

// inputAt returns the first cycle, now or later, at which lane li's input
// port may start feeding a run from it: now if the port feeds fewer than
// Speedup runs and none from li, else when a run of li or the first of
// the port's runs ends.
func (s *Switch) inputAt(li int32, now kernel.Time) kernel.Time {
	sp := s.speedup
	at := li / s.vls * (sp + 1)
	runs := s.times[at+1 : at+1+sp]
	busy, first := int32(0), kernel.Never
	for _, r := range runs {
		if r.end <= now {
			continue
		}
		if r.lane == li {
			return r.end
		}
		busy++
		first = min(first, r.end)
	}
	if busy < sp {
		return now
	}
	return first
}

// portAt returns the first cycle, now or later, at which input port port
// feeds fewer than Speedup runs (inputAt of its lanes that feed none).
func (s *Switch) portAt(port int32, now kernel.Time) kernel.Time {
	sp := s.speedup
	at := port * (sp + 1)
	busy, first := int32(0), kernel.Never
	for _, r := range s.times[at+1 : at+1+sp] {
		if r.end > now {
			busy++
			first = min(first, r.end)
		}
	}
	if busy < sp {
		return now
	}
	return first
}

// freeAt returns when output port p's current run ends.
func (s *Switch) freeAt(p int32) kernel.Time { return s.times[p*(s.speedup+1)].end }

// feed records that lane li's input port feeds a run from it until end.
func (s *Switch) feed(li int32, now, end kernel.Time) {
	sp := s.speedup
	at := li / s.vls * (sp + 1)
	runs := s.times[at+1 : at+1+sp]
	for i := range runs {
		if runs[i].end <= now {
			runs[i] = inRun{end: end, lane: li}
			return
		}
	}
	panic("switching: input port feeds more runs than its speedup")
}

// setWaiting marks lane li as waiting for an output, or not.
func (s *Switch) setWaiting(li int32, on bool) {
	w, b := li/64, uint64(1)<<(li%64)
	if on {
		s.waiting[w] |= b
		s.nWaiting++
	} else {
		s.waiting[w] &^= b
		s.nWaiting--
	}
}

// eligibleOldestFirst lists the waiting lanes eligible at now, oldest
// first, ties in cyclic lane order from the round-robin pointer, in a
// scratch slice valid until the next call, leaving out those whose input
// port is busy; it lowers *next to the first cycle one of the lanes it
// leaves out may be allocated. Each entry holds its lane in its low 16
// bits (laneOf).
func (s *Switch) eligibleOldestFirst(now kernel.Time, next *kernel.Time) []uint64 {
	s.order = s.order[:0]
	s.eligibleIn(s.ptr, int32(len(s.lanes)), now, next)
	s.eligibleIn(0, s.ptr, now, next)
	if !slices.IsSorted(s.order) {
		slices.Sort(s.order)
	}
	return s.order
}

// eligibleIn adds to s.order the eligible waiting lanes in [lo, hi), in
// lane order, for eligibleOldestFirst, lowering *next to when those it
// leaves out may be allocated (addEligible).
func (s *Switch) eligibleIn(lo, hi int32, now kernel.Time, next *kernel.Time) {
	// The lanes of a port are consecutive: portLo and portHi bound those
	// of the port last looked up, free says whether it may feed a run.
	portLo, portHi, free := int32(0), int32(0), false
	for w := lo / 64; w*64 < hi; w++ {
		base := w * 64
		word := s.waiting[w]
		if base < lo {
			word &^= 1<<(lo-base) - 1
		}
		if hi-base < 64 {
			word &= 1<<(hi-base) - 1
		}
		for word != 0 {
			li := base + int32(bits.TrailingZeros64(word))
			if li < portLo || li >= portHi {
				port := li / s.vls
				portLo, portHi = port*s.vls, port*s.vls+s.vls
				at := s.portAt(port, now)
				if free = at <= now; !free {
					*next = min(*next, at)
					// None of its lanes can start before at: they sleep
					// till then if that is less than sleepSlots ahead.
					s.sleepRange(max(portLo, lo), min(portHi, hi), at, now)
				}
			}
			if !free {
				// The input port feeds all the runs it may now: none of its
				// lanes can start, and their records are not looked at.
				if e := portHi - base; e < 64 {
					word &^= 1<<e - 1
				} else {
					word = 0
				}
				continue
			}
			word &= word - 1
			s.addEligible(li, now, next)
		}
	}
}

// addEligible adds waiting lane li, whose input port may feed a run, to
// s.order if its head may be allocated at now, else lowers *next to when
// it may; it sets s.blocked if the head is parked for want of room
// downstream.
func (s *Switch) addEligible(li int32, now kernel.Time, next *kernel.Time) {
	if at := s.eligibleAt(li, now); at > now {
		*next = min(*next, at)
		return
	}
	if pk := &s.parks[li]; pk.bits&parkedBit != 0 && !s.noPark && s.stillParked(li, pk, now) {
		// Its selection would fail as it did: wait for the retry
		// time, a freed output VL or news of room downstream.
		if pk.bits&fcBlockedBit != 0 {
			s.blocked = true
		}
		if at := pk.retryAt(now); at > now {
			*next = min(*next, at)
			return
		}
	}
	// A lane whose input is busy now stays so this cycle: leaving it out
	// keeps the sort short. With speedup 1 portAt has told.
	if s.speedup > 1 {
		if at := s.inputAt(li, now); at > now {
			*next = min(*next, at)
			return
		}
	}
	// Sort by age, oldest first, then by position from the pointer: the
	// number of lanes listed before (pos and li are below MaxLanes < 2¹⁶).
	age := uint32(now) - s.lanes[li].since
	pos := len(s.order)
	s.order = append(s.order, uint64(^age)<<32|uint64(pos)<<16|uint64(li))
}

// laneOf returns the lane of an entry of eligibleOldestFirst.
func laneOf(key uint64) int32 { return int32(key & 0xffff) }

// compactBusy drops outputs with no packet in progress from the busy list.
func (s *Switch) compactBusy() {
	b := s.busy[:0]
	for _, p := range s.busy {
		if s.out[p].n > 0 {
			b = append(b, p)
		} else {
			s.out[p].busy = false
		}
	}
	s.busy = b
}

// selectOutput runs the selection function for the head packet of lane li:
// among the routing's candidates whose output VL is free and whose flow
// control admits the packet (with SelectIdle, whose port is not sending a
// run either), the highest priority, then the most free space downstream,
// then the fewest packets in progress, then a fair coin. It returns the
// port, output VL and the candidate's priority, or port -1. A head with
// one candidate whose port is busy with a run cannot go before the run
// ends, whatever its output VL and flow control say: unless onlyBusy makes
// an exception for it, selectOutput returns that port at once, with output
// VL 0 and no priority (0), without looking them up (nor routing again if
// an earlier selection found the port), and the head waits for the run's
// end (Tick), which then selects again.
func (s *Switch) selectOutput(now kernel.Time, li int32, next *kernel.Time) (port, outVL int32, prio routing.Priority) {
	l := &s.lanes[li]
	if s.onlyBusy(li, now) > now {
		return int32(l.only) - 1, 0, 0
	}
	inPort := int(li / s.vls)
	inVL := int(li % s.vls)
	need := s.need(l)
	sl := int(l.sl)
	s.cand = s.route.Route(int(s.id), inPort, inVL, sl, l.dlid, s.cand[:0])
	if len(s.cand) == 1 {
		l.only = uint16(s.cand[0].Port) + 1 // the routing is a function
		if s.onlyBusy(li, now) > now {
			return s.cand[0].Port, 0, 0
		}
	}
	if len(s.cand) == 0 {
		if s.err == nil {
			s.err = fmt.Errorf("routing %s gives no output port at switch %d for DLID %d arriving on port %d VL %d",
				s.route.Name(), s.id, l.dlid, inPort, inVL)
			s.eng.Stop()
		}
		return -1, 0, 0
	}
	best, bestVL := int32(-1), int32(0)
	var bestPrio routing.Priority
	bestFree, ties := -1, 0 // bestFree < 0: not looked up yet
	s.closed = s.closed[:0]
	s.busyCand = s.busyCand[:0]
	var outs uint64 // the candidates' ports (park.bits), if none is free
	for _, c := range s.cand {
		if best >= 0 && c.Priority < bestPrio {
			// It cannot win, whatever its state: not looking it up saves
			// the visits to its output and its flow control.
			continue
		}
		o := &s.sel[c.Port]
		ovl := s.route.OutVL(int(s.id), inPort, inVL, sl, int(c.Port))
		switch s.outAt(now, c.Port, ovl, need) {
		case outHeld:
			outs |= 1 << portBit(c.Port)
			continue
		case outClosed:
			outs |= 1 << portBit(c.Port)
			// When its flow control opens matters only if no candidate
			// can be taken: it is looked up then.
			s.closed = append(s.closed, closedOut{port: c.Port, vl: int32(ovl)})
			continue
		case outBusy:
			// Busy with a run: the head may go when it ends.
			outs |= 1 << portBit(c.Port)
			s.busyCand = append(s.busyCand, c.Port)
			continue
		}
		if best < 0 || c.Priority > bestPrio {
			best, bestVL, bestPrio, bestFree, ties = c.Port, int32(ovl), c.Priority, -1, 1
			continue
		}
		if c.Priority < bestPrio {
			continue
		}
		// Equal priority: the most free space downstream, then the fewest
		// packets in progress, then a fair coin. Free space is looked up
		// only here, as it costs a visit to the flow-control state.
		if bestFree < 0 {
			bestFree = s.sel[best].fc.Free(now, int(bestVL))
		}
		free := o.fc.Free(now, ovl)
		// A packet in progress holds its output VL, and only one holds
		// it: the held bits count the packets in progress (outPort.n)
		// without a visit to the port records.
		n, bestN := bits.OnesCount16(o.held), bits.OnesCount16(s.sel[best].held)
		switch {
		case free > bestFree || (free == bestFree && n < bestN):
			best, bestVL, bestFree, ties = c.Port, int32(ovl), free, 1
		case free == bestFree && n == bestN:
			ties++
			if s.rng.IntN(ties) == 0 {
				best, bestVL, bestFree = c.Port, int32(ovl), free
			}
		}
	}
	if best < 0 {
		retry, fcBlocked := kernel.Never, len(s.closed) > 0
		for _, c := range s.closed {
			retry = min(retry, s.sel[c.port].fc.ReadyAt(now, int(c.vl), need))
		}
		for _, p := range s.busyCand {
			retry = min(retry, s.freeAt(p))
		}
		if fcBlocked {
			s.blocked = true
		}
		*next = min(*next, retry)
		// A route probe is not parked: whether it is marked Blocked
		// (markProbe) depends on the outputs' owners, which grants change
		// without moving the switch's generation, so it selects again
		// whenever the switch ticks.
		// Every candidate was looked at: none could be skipped.
		pk := park{bits: outs, gen: s.gen, retry: uint32(retry)}
		if !l.probe {
			pk.bits |= parkedBit
		}
		if fcBlocked {
			pk.bits |= fcBlockedBit
		}
		if retry == kernel.Never {
			pk.bits |= noRetryBit
		}
		s.parks[li] = pk
	}
	return best, bestVL, bestPrio
}

// grant starts the head packet of lane li on output port, VL outVL, a
// candidate of priority prio, and sends its first run.
func (s *Switch) grant(now kernel.Time, port, outVL int32, prio routing.Priority, li int32, next *kernel.Time) {
	o := &s.out[port]
	l := &s.lanes[li]
	sel := &s.sel[port]
	switch prio {
	// Not minimal: counted per packet. Minimal hops, by far the most,
	// do not visit the packet here.
	case routing.Medium:
		if pk := s.pool.Get(l.q.Front().Pkt); pk.MediumHops < math.MaxUint8 {
			pk.MediumHops++
		}
	case routing.Low:
		if pk := s.pool.Get(l.q.Front().Pkt); pk.LowHops < math.MaxUint8 {
			pk.LowHops++
		}
	}
	if l.probe && sel.owner >= 0 && sel.owner != l.src && o.n == 0 && uint32(now)-sel.freed < uint32(sel.lastLen) {
		// The link carried another flow's packet within the last packet
		// time: it is in use, though the probe found it between two packets.
		s.pool.Get(l.q.Front().Pkt).Probe |= flit.Blocked
	}
	if o.n == 0 {
		sel.owner = l.src
	} else if sel.owner != l.src {
		sel.owner = -1
	}
	sel.held |= 1 << outVL
	o.active[o.n] = int16(li)
	o.n++
	if !o.busy {
		o.busy = true
		s.busy = append(s.busy, port)
	}
	l.state = active
	s.parks[li].bits = 0 // not parked
	l.outVL = uint8(outVL)
	l.reserved = s.mode == CutThrough && sel.fc.Reserve(now, int(outVL), int(l.flits))
	k := s.runLength(now, port, l, next)
	if k == 0 {
		panic("switching: a granted head cannot move")
	}
	s.send(now, port, o.n-1, k, next)
}

// runLength returns how many flits of lane l's head packet output o can
// send back to back from now on, or 0 if it can send none now, in which case
// it lowers *next to when that may change (or leaves a wake-up to AcceptRun or
// to flow control).
func (s *Switch) runLength(now kernel.Time, port int32, l *lane, next *kernel.Time) int {
	if l.q.Len() == 0 {
		return 0 // the rest of the packet is not sent yet; AcceptRun wakes us
	}
	f, k := l.q.FrontRun(now)
	if !f.ReadyBy(now) {
		*next = min(*next, f.Ready(now))
		return 0
	}
	k = min(k, int(l.flits-l.sent), int(s.maxRun))
	if !l.reserved {
		fc := s.sel[port].fc
		b := fc.Burst(now, int(l.outVL))
		if b <= 0 {
			s.blocked = true
			*next = min(*next, fc.Pending(now))
			return 0
		}
		k = min(k, b)
	}
	return k
}

// transfer sends a run on output port p from the packets in progress
// there, staying with the packet of the last run while it can move.
func (s *Switch) transfer(now kernel.Time, p int32, next *kernel.Time) bool {
	o := &s.out[p]
	n := o.n
	for j := int32(0); j < n; j++ {
		ai := int32(o.rr) + j
		if ai >= n {
			ai -= n
		}
		li := int32(o.active[ai])
		if at := s.inputAt(li, now); at > now {
			*next = min(*next, at)
			continue
		}
		if k := s.runLength(now, p, &s.lanes[li], next); k > 0 {
			s.send(now, p, ai, k, next)
			return true
		}
	}
	return false
}

// send moves the k front flits of the lane at position ai of output p's
// packets in progress onto the link, one per cycle from now on.
func (s *Switch) send(now kernel.Time, p, ai int32, k int, next *kernel.Time) {
	o := &s.out[p]
	li := int32(o.active[ai])
	l := &s.lanes[li]
	end := now + kernel.Time(k)
	s.feed(li, now, end)
	s.times[p*(s.speedup+1)].end = end
	*next = min(*next, end)
	f := l.q.Front()
	l.q.Pop(s.ring(li), k)
	in := li / s.vls
	if t := s.in[in].Freed(now, int(li%s.vls), k); t != kernel.Never {
		if up := s.ups[in]; up != nil {
			up.Unblock(int(li%s.vls), t)
		}
	}
	if l.sent == 0 {
		if pk := s.pool.Get(f.Pkt); pk.Hops < math.MaxUint16 {
			pk.Hops++
		}
	}
	l.sent += uint16(k)
	tail := l.sent == l.flits
	arrive := now + s.flitDelay
	if !l.reserved {
		s.sel[p].fc.Sent(now, int(l.outVL), arrive, k)
	}
	o.to.AcceptRun(now, int(o.toPort), int(l.outVL), f.Pkt, arrive, k)
	s.FlitHops += int64(k)
	s.eng.ProgressUntil(end - 1)
	if !tail {
		o.rr = int16(ai) // stay with this packet while it can move
		return
	}
	// The tail leaves at end−1 and the output is busy until end, so the
	// output VL is free for the next packet from then on.
	sel := &s.sel[p]
	sel.held &^= 1 << l.outVL
	sel.freed, sel.lastLen = uint32(end), l.flits
	s.outChanged(p, int32(l.outVL))
	n := o.n
	copy(o.active[ai:n], o.active[ai+1:n])
	o.n--
	if ai >= n-1 {
		o.rr = 0
	} else {
		o.rr = int16(ai)
	}
	l.sent = 0
	if l.q.Len() > 0 {
		h := l.q.Front()
		*next = min(*next, s.newHead(li, h.Pkt, h.Ready(now), end, now))
	} else {
		l.state = idle
	}
}
