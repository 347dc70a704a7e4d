// Package switching models an input-queued switch with virtual lanes, flit
// by flit and event-driven. A packet crosses it in stages: it waits in an
// input buffer, is routed, selects an output, is granted it by the
// allocator, and leaves over the crossbar and the output link in runs of
// flits.
//
// # Input buffers
//
// Each input port has one FIFO per virtual lane (VL), a lane, so
// head-of-line blocking is modelled (BuffersFIFO). Under BuffersVOQ each
// input port and VL has instead Params.Slots lanes of one packet each,
// sharing the VL's credits, so every packet of the buffer competes as a
// FIFO's head does: virtual output queues (voq.go says how, and the rules
// that keep them a buffer). Under BuffersShared the slots are those of
// an output-queued shared memory whose outputs read any number of an
// input's packets at once, and whose credits are given from the memory
// by a dynamic threshold (shared.go). Each input port also keeps the
// flow-control state of the link into it (flowctl.Link), and a network's
// switches keep their ports, lanes and buffers in shared huge-page slabs
// (Storage): the simulator's speed is bound by memory latency, and these
// layouts keep the records touched for a flit few and close together.
//
// # Routing and selection
//
// A packet whose head reaches the front of its FIFO is routed: the routing
// function (routing.Routing), indexed by input port, input VL and service
// level, gives its candidate output ports, each with a priority, and the
// output VL it would take on each (OutVL). Routing takes the routing delay
// counted from the head's arrival, so routing overlaps queueing.
//
// Under dynamic VL choice (Params.Classes) the routing is asked with the
// class of the input VL and names an output class; on each candidate the
// head looks at every VL of the class and takes the one that is free and
// admits it with the most room downstream (the lowest of equals), so a
// candidate is available when any VL of its class is, and a parked head
// looks again when any of them changes.
//
// The head then competes for an output VL: the selection function takes
// the candidate with the highest priority whose output VL is free and
// whose flow control admits it, then the one with the most free space
// downstream, then the output with the fewest packets in progress, and
// breaks remaining ties at random from the switch's seeded stream. That is
// SelectCredits, the default; SelectIdle also passes over candidates whose
// port is in the middle of another packet's run (see Selection).
//
// Under SelectCredits, a waiting head whose selected output is busy with a
// run waits for the run's end and then selects again; under SelectIdle a
// busy output is not selected, and a head none of whose candidates is
// available waits for the first of their runs to end. A head whose routing
// gives it one candidate port cannot go while that port is busy with a
// run, whatever its output VL and flow control say: under either selection
// it waits for the run's end without selecting (only route probes, whose
// selection marks them, select anyway).
//
// # Virtual cut-through and wormhole
//
// The switching technique (Mode) decides what flow control must admit. A
// head starts under virtual cut-through (CutThrough) only when the next
// buffer has room for the whole packet, and that room is reserved at its
// grant where the flow control can reserve it (credits; not STOP/GO);
// under wormhole (Wormhole) room for one flit lets it start, and a blocked
// packet stays spread over the buffers along its path.
//
// # Parking and sleeping
//
// The switch is event-driven: it ticks when a run ends, a run arrives for a
// packet in progress, a routing delay expires, flow control reports room
// on one of its outputs, or the credits on their way will admit a waiting
// head (not for every credit: a cut-through head needs a packet's worth),
// and sleeps otherwise. A tick that finds nothing to do changes nothing, so
// results do not depend on how often a switch is woken.
//
// A waiting head whose selection failed is parked: passed over until that
// could change, when an output VL of one of its candidate ports is set
// free, flow control on one reports room (each output port has its own
// flit.Sender, Sender), the credits on their way will admit it, or
// (SelectIdle) the run of a busy candidate port ends. When one of its
// output VLs changes, the head first looks at that output VL alone (its
// port is in the parking record; the routing's OutVL names the VL): if it
// is still not available to the head (held again, its credits still on
// their way or, under SelectIdle, its port busy with a run), the head
// stays parked, its retry time brought forward to when those credits are
// back or that run ends if that is sooner, and it selects again, routing
// included, only otherwise (on a switch of more than 61 ports, whose ports
// share parking bits, it selects again at once). Under a herd, where many
// heads wait for the same few outputs, most changes are of that kind (on
// the 16,384-host Dragonfly with G at uniform 0.5, 10,000 cycles, 67.8
// million selections of which 44.6 million failed became 44.2 million with
// 21.3 million failed).
//
// The scan for waiting heads passes over those of an input port that feeds
// all the runs it may without looking at them, and a head that cannot go
// before a known cycle fewer than 32 cycles ahead (its routing delay, the
// end of its chosen output's run, or of the runs its input port feeds)
// sleeps until then, out of the bitmap the scan reads: on the 16,384-host
// SF×FF product with DOR at uniform 0.5 (10,000 cycles), 87 of the 127
// million heads the scan looked up were not eligible yet, and 98 of the
// 199 million input ports it checked were busy.
//
// # Allocation
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
// The separable allocators (Params.Allocator: AllocISLIP, AllocInputFirst)
// select first and match after: each eligible head whose selected output
// and input are free requests that output, and the requests are matched
// in Params.Iterations rounds, by round-robin pointers per input and per
// output port (match.go). Heads select without knowing the cycle's other
// grants, so two adaptive heads may pick one output and one loses; a head
// that requested and lost selects again in the next cycle. A tick with a
// request always grants one, so a tick still changes nothing unless
// something can move.
//
// Once granted, a packet owns its output VL until its tail has left.
//
// # Crossbar and output
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
// When a run ends the output arbitrates again. Link arbitration is by
// packet, as on InfiniBand: the output continues the packet of its last run
// if its next flits are there, and otherwise turns round-robin to another
// packet in progress that can move, so stalls are filled without
// interleaving packets otherwise; an output with nothing to send takes new
// grants.
//
// # Route probes
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
package switching
