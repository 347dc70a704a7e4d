package switching

import (
	"netsim/flit"
	"netsim/flowctl"
	"netsim/internal/hugemem"
	"netsim/kernel"
	"netsim/routing"
)

// Switch is one switch. It is not safe for concurrent use; a simulation is
// single-threaded.
type Switch struct {
	// The fields a tick reads come first, scalars then slices, so the
	// few cache lines they fill are those a tick touches (a large
	// network's switches do not stay in the cache from one cycle to the
	// next); those of the other organisations, allocators and route
	// probes come after.

	alarm     kernel.Alarm
	blocked   bool // last tick found a packet held back by flow control
	mode      Mode
	selection Selection
	noPark    bool
	alloc     Allocator // the allocator (below)
	// gen counts the changes that may let a parked head go before its
	// retry time: an output VL set free, and news of room downstream
	// (Unblock). portGen holds, per output port (on a switch of more
	// than portBits ports several share an entry, portBit), the
	// generation of the last change on any of its VLs, vlGen per output
	// VL (port·VLs + VL) that of its last change, and allGen that of the
	// last news that names no port (Unblock).
	gen, allGen uint32
	vls         int32
	// slots is the lanes per input port and VL (Params.Slots), lpp the
	// lanes per input port: lane li is slot li % slots of VL
	// li % lpp / slots of input port li / lpp (portOf, vlOf).
	slots, lpp int32
	speedup    int32
	maxRun     int32
	// ringLen is the runs of a lane's ring (runs); buffer is the
	// capacity of a lane in flits.
	ringLen int32
	buffer  int32
	// nWaiting counts the lanes in state waiting, ptr is the round-robin
	// pointer (eligibleOldestFirst).
	nWaiting     int32
	ptr          int32
	sleepMask    uint32 // sleep's slots in use (below)
	id           int32
	lanePorts    uint64 // portOf's multiplier for lpp
	routingDelay kernel.Time
	flitDelay    kernel.Time
	woke         kernel.Time // the last cycle whose sleep slot was emptied (below)
	// FlitHops counts flits this switch has sent.
	FlitHops int64
	eng      *kernel.Engine
	pool     *flit.Pool
	route    routing.Routing
	// classes maps the routing's VL classes onto the VLs under dynamic VL
	// choice (Params.Classes), nil otherwise.
	classes *routing.Classes
	// sh is the shared memory's state under BuffersShared (shared.go),
	// nil otherwise.
	sh *sharedMem

	// waiting has a bit set for each lane in state waiting and not asleep.
	waiting []uint64
	// parks holds, per lane, what passing over its parked head needs,
	// and parked has a bit set per lane whose head is parked (its
	// park.bits has parkedBit), beside waiting: a tick looks a record up
	// only for the parked heads among the eligible lanes.
	parked []uint64
	parks  []park
	// elig holds, per lane, when its waiting head may first be allocated,
	// modulo 2³², apart from the lanes: each tick looks it up for every
	// waiting lane whose input port may feed a run, most of which cannot
	// move yet.
	elig  []uint32
	lanes []lane // port·VLs + vl
	// times holds, per port, when the output's current run ends and the
	// runs the input feeds (Speedup+1 entries), apart from the port
	// records so a tick finds what is due without touching them.
	times []inRun
	busy  []int32  // output ports with packets in progress
	order []uint64 // eligibleOldestFirst's scratch list
	sel   []outSel // per output port
	out   []outPort
	cand  []routing.Candidate
	// in holds the flow-control state of the link into each port, kept
	// here so freeing a slot touches memory the switch holds anyway.
	in      []flowctl.Link
	ups     []flit.Sender // who sends on the link into each port
	portGen []uint32
	vlGen   []uint32
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
	sleepSpan [sleepSlots][2]uint16 // per slot in use, the words [lo, hi) of its bitmap that may hold lanes
	// runs holds the lanes' rings, ringLen runs each.
	runs []flit.Run
	// vq holds, under BuffersVOQ, the state of each input port and VL's
	// slots, and slotSeq numbers a slot's packet in the order of arrival
	// at its buffer (voq.go).
	vq []voqLane
	// holdCredits, if not nil, takes the credits freed on the input
	// ports it marks in heldIn instead of the links (HoldCredits).
	heldIn      []bool
	holdCredits func(s *Switch, port int32, vl, n int, now kernel.Time)
	// linkFlits counts the flits sent by output port and VL
	// (CountLinkFlits).
	linkFlits []int64

	rng      kernel.RNG
	senders  []portSender // Sender's per output port
	closed   []closedOut  // selectOutput's candidates closed by flow control
	busyCand []int32      // selectOutput's candidate ports passed over mid-run (SelectIdle)
	slotSeq  []uint32

	// With a separable allocator (not oldest-first), iterations is its
	// number of rounds and the rest its state and scratch space: the
	// cycle's requests, the outputs granted and the requests picked in a
	// round, per input port the runs it may still start and its pointer
	// (over outputs under iSLIP, over its lanes under input-first), per
	// output port whether it is matched, the request it grants in the
	// round (−1: none) and its pointer over inputs (match.go).
	iterations int
	reqs       []request
	grants     []int32
	picks      []int32
	inCap      []int8
	inPtr      []int32
	outDone    []bool
	outGrant   []int32
	outPtr     []int32

	err error
}

// Err returns the first routing failure the switch met, if any; the switch
// stops the engine when it meets one.
func (s *Switch) Err() error { return s.err }

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
		classes:      p.Classes,
		slots:        int32(p.Slots()),
		lpp:          int32(p.VLs * p.Slots()),
		lanePorts:    lanePorts(int32(p.VLs * p.Slots())),
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
		sleep:        make([]uint64, sleepSlots*((p.lanes()+63)/64)),
		cand:         make([]routing.Candidate, 0, p.Ports),
		closed:       make([]closedOut, 0, p.Ports),
		busyCand:     make([]int32, 0, p.Ports),
	}
	// waiting and parked side by side: a tick reads both.
	words := (p.lanes() + 63) / 64
	bitmaps := make([]uint64, 2*words)
	s.waiting, s.parked = bitmaps[:words:words], bitmaps[words:]
	for i := range s.sel {
		s.sel[i].owner = -1
	}
	for i := range s.senders {
		s.senders[i] = portSender{s: s, port: int32(i)}
	}
	if p.Allocator != AllocOldestFirst {
		s.alloc, s.iterations = p.Allocator, max(p.Iterations, 1)
		s.reqs = make([]request, 0, p.Ports*p.VLs)
		s.grants = make([]int32, 0, p.Ports)
		s.picks = make([]int32, 0, p.Ports*p.VLs)
		s.inCap = make([]int8, p.Ports)
		s.inPtr = make([]int32, p.Ports)
		s.outDone = make([]bool, p.Ports)
		s.outGrant = make([]int32, p.Ports)
		s.outPtr = make([]int32, p.Ports)
		for i := range s.outGrant {
			s.outGrant[i] = -1
		}
	}
	s.maxRun = int32(p.MaxRun)
	if s.maxRun <= 0 {
		s.maxRun = MaxPacketFlits
	}
	s.runs, s.ringLen, s.buffer = runs, int32(flit.RingRuns(p.slotFlits())), int32(p.slotFlits())
	if p.Buffers != BuffersFIFO {
		s.vq = make([]voqLane, p.Ports*p.VLs)
		s.slotSeq = make([]uint32, p.lanes())
		for i := range s.vq {
			s.vq[i] = voqLane{free: 1<<p.Slots() - 1, arriving: -1, active: -1}
		}
	}
	if p.Buffers == BuffersShared {
		s.sh = newSharedMem(p)
	}
	return s
}

// ConnectIn sets up the link arriving at port with flow-control
// parameters fp, from sender up, and returns its flow-control state for the
// sender to use. The switch keeps the state.
func (s *Switch) ConnectIn(port int, fp flowctl.Params, up flit.Sender) (flowctl.Control, error) {
	link := &s.in[port]
	if s.sh != nil {
		// The sender starts with the input port and VL's reserve; the
		// rest of its credits come from the pool (shared.go).
		fp.Buffer = int(s.sh.reserve)
	}
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

// SetLinkDelay sets the cycles a flit takes from leaving the switch by
// port to being in the next buffer, for a link whose latency differs from
// the one Params.FlitDelay assumes (link classes); delay ≥ 1.
func (s *Switch) SetLinkDelay(port, delay int) {
	s.out[port].extra = int32(delay - int(s.flitDelay))
}

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
		lanes += p.lanes()
		slots += p.lanes() * flit.RingRuns(p.slotFlits())
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
	n, l, k := p.Ports, p.lanes(), p.lanes()*flit.RingRuns(p.slotFlits())
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

// ring returns lane li's share of the runs slab.
func (s *Switch) ring(li int32) []flit.Run {
	lo := li * s.ringLen
	return s.runs[lo : lo+s.ringLen : lo+s.ringLen]
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
	busy   bool  // listed in Switch.busy
	extra  int32 // cycles this port's link adds to Params.FlitDelay (SetLinkDelay)
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
