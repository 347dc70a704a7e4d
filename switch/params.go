package switching

import (
	"fmt"
	"strings"

	"netsim/flowctl"
	"netsim/keyerr"
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

// Modes returns the switching modes, in order.
func Modes() []Mode { return []Mode{CutThrough, Wormhole} }

// String returns the mode's name in experiment files and results:
// "cut-through" or "wormhole".
func (m Mode) String() string {
	switch m {
	case CutThrough:
		return "cut-through"
	case Wormhole:
		return "wormhole"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// MarshalText returns the mode's name.
func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// ParseMode parses a switching mode by its name (Mode.String); the names
// are the only ones accepted, here as in experiment files.
func ParseMode(s string) (Mode, error) { return parseName(s, Modes(), "switching", "mode") }

// parseName returns the member of all named s, or an error naming key
// and what a member is.
func parseName[T fmt.Stringer](s string, all []T, key, what string) (T, error) {
	for _, x := range all {
		if x.String() == s {
			return x, nil
		}
	}
	var zero T
	return zero, keyerr.New(key, "unknown %s %q (known: %s)", what, s, names(all))
}

// names joins the names of xs with ", ".
func names[T fmt.Stringer](xs []T) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = x.String()
	}
	return strings.Join(s, ", ")
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

// Selections returns the selection functions, in order.
func Selections() []Selection { return []Selection{SelectCredits, SelectIdle} }

// ParseSelection parses a selection function as written in experiment
// files: "credits" (SelectCredits) or "idle" (SelectIdle).
func ParseSelection(s string) (Selection, error) {
	return parseName(s, Selections(), "selection", "selection function")
}

// MarshalText returns the selection function's name.
func (s Selection) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

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

// Allocator is how a switch matches its waiting heads to outputs in a
// cycle, once each has selected its output.
type Allocator uint8

const (
	// AllocOldestFirst is a greedy maximal matching, oldest head first:
	// each eligible head, by the cycle it became eligible, starts on the
	// output it selects if that output and its input are still free. A
	// head selects knowing the grants made before it in the cycle.
	AllocOldestFirst Allocator = iota
	// AllocISLIP is iSLIP (McKeown 1999): the heads that selected a free
	// output request it, outputs grant inputs and inputs accept outputs
	// round-robin from per-port pointers, in Iterations rounds.
	AllocISLIP
	// AllocInputFirst is a separable input-first allocator (BookSim's
	// separable_input_first): each input picks one of its requesting lanes
	// round-robin, then each output one of the inputs that picked it, in
	// Iterations rounds.
	AllocInputFirst
)

// Allocators returns the allocators, in order.
func Allocators() []Allocator { return []Allocator{AllocOldestFirst, AllocISLIP, AllocInputFirst} }

// String returns the allocator's name in experiment files: "oldest-first",
// "islip" or "input-first".
func (a Allocator) String() string {
	switch a {
	case AllocOldestFirst:
		return "oldest-first"
	case AllocISLIP:
		return "islip"
	case AllocInputFirst:
		return "input-first"
	}
	return fmt.Sprintf("Allocator(%d)", uint8(a))
}

// MarshalText returns the allocator's name.
func (a Allocator) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// ParseAllocator parses an allocator by its name (Allocator.String).
func ParseAllocator(s string) (Allocator, error) {
	return parseName(s, Allocators(), "allocator", "allocator")
}

// Buffers is the organisation of a switch's input buffers. Each keeps the
// flow control of the link into it per (input port, VL), one credit pool
// per VL as on the wire; they differ in which packets may leave.
type Buffers uint8

const (
	// BuffersFIFO keeps one FIFO per input port and VL: only its head
	// packet may be routed and leave.
	BuffersFIFO Buffers = iota
	// BuffersVOQ queues the packets of an input port and VL by the output
	// they select: every packet in the buffer is routed and may leave as
	// soon as its own output can take it, so none waits behind one bound
	// for another output. The buffer reads one packet at a time (the
	// next may start once the last run of the one before has ended, as
	// for a FIFO), and packets to one destination leave in their order of
	// arrival (the later waits until the earlier is granted).
	BuffersVOQ
	// BuffersShared is an output-queued shared-memory switch: the
	// Ports × VLs × Buffer flits of its input buffers are one memory,
	// of which each input port and VL keeps Reserve flits for itself and
	// takes more from the rest (the pool) while it holds less than
	// Reserve + Alpha × the free pool (a dynamic threshold), up to Limit.
	// The credits the sender into an input port and VL holds are what it
	// has been given of that memory. Packets are queued by output as
	// under BuffersVOQ, but the memory is read by the outputs: an input
	// port and VL may have any number of packets leaving at once, each to
	// its own output, and no speedup bounds what an input feeds. Packets
	// to one destination leave in their order of arrival.
	BuffersShared
)

// BuffersKinds returns the buffer organisations, in order.
func BuffersKinds() []Buffers { return []Buffers{BuffersFIFO, BuffersVOQ, BuffersShared} }

// String returns the organisation's name in experiment files: "fifo",
// "voq" or "shared".
func (b Buffers) String() string {
	switch b {
	case BuffersFIFO:
		return "fifo"
	case BuffersVOQ:
		return "voq"
	case BuffersShared:
		return "shared"
	}
	return fmt.Sprintf("Buffers(%d)", uint8(b))
}

// MarshalText returns the organisation's name.
func (b Buffers) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

// ParseBuffers parses a buffer organisation by its name (Buffers.String).
func ParseBuffers(s string) (Buffers, error) {
	return parseName(s, BuffersKinds(), "buffers", "buffer organisation")
}

// VLChoice is how a packet's VL on each link is chosen.
type VLChoice uint8

const (
	// VLStatic takes the VL the routing's VL map names (OutVL at a
	// switch, Source at the NIC). A routing given more VLs than it needs
	// spreads its packets over copies of its VL layout, by destination.
	VLStatic VLChoice = iota
	// VLDynamic builds the routing on the VLs it needs, its VL classes,
	// splits the link VLs among them (routing.Classes) and lets a packet
	// take any VL of its class at each hop: the free one that admits it
	// with the most room downstream, chosen when it selects its output
	// (as BookSim allocates an output VC from a range).
	VLDynamic
)

// VLChoices returns the VL choices, in order.
func VLChoices() []VLChoice { return []VLChoice{VLStatic, VLDynamic} }

// String returns the VL choice's name in experiment files: "static" or
// "dynamic".
func (c VLChoice) String() string {
	switch c {
	case VLStatic:
		return "static"
	case VLDynamic:
		return "dynamic"
	}
	return fmt.Sprintf("VLChoice(%d)", uint8(c))
}

// MarshalText returns the VL choice's name.
func (c VLChoice) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// ParseVLChoice parses a VL choice by its name (VLChoice.String).
func ParseVLChoice(s string) (VLChoice, error) {
	return parseName(s, VLChoices(), "vl_choice", "VL choice")
}

// MaxIterations bounds Params.Iterations.
const MaxIterations = 16

// Slots returns the lanes a switch with parameters p keeps per input port
// and VL: 1 under BuffersFIFO, where a lane is a FIFO of packets; under
// BuffersVOQ and BuffersShared one per packet the buffer may hold at
// once, each a lane of one packet. A buffer holds whole packets, the one
// arriving (maybe none of whose flits is there yet), the one it is
// reading, and one given back in the cycle (not taken again before the
// next), so Held()/ShortestPacket + 3 is enough.
func (p Params) Slots() int {
	if p.Buffers == BuffersFIFO {
		return 1
	}
	return p.Held()/max(p.ShortestPacket, 1) + 3
}

// Held returns the most flits one input port and VL may hold: Buffer,
// and under BuffersShared its share of the memory at most, SharedLimit()
// (itself at most what MaxSlots slots of the shortest packet hold).
func (p Params) Held() int {
	if p.Buffers != BuffersShared {
		return p.Buffer
	}
	return p.SharedLimit()
}

// SharedLimit returns, under BuffersShared, the most flits one input
// port and VL may hold: Limit (0: 2 × Buffer), no more than its reserve
// and the whole pool, flowctl.MaxBuffer, or what MaxSlots − 3 slots of the
// shortest packet hold.
func (p Params) SharedLimit() int {
	l := p.LimitSetting()
	pool := p.Ports * p.VLs * (p.Buffer - p.SharedReserve())
	return max(min(l, p.SharedReserve()+pool, flowctl.MaxBuffer, (MaxSlots-3)*max(p.ShortestPacket, 1)), p.SharedReserve())
}

// LimitSetting returns Limit, or its default 2 × Buffer when 0: the limit
// as configured, before SharedLimit caps it for a switch.
func (p Params) LimitSetting() int {
	if p.Limit > 0 {
		return p.Limit
	}
	return 2 * p.Buffer
}

// SharedReserve returns the flits each input port and VL keeps for itself
// under BuffersShared: Reserve, or when 0 the longest packet (capped by
// Buffer).
func (p Params) SharedReserve() int {
	if p.Reserve > 0 {
		return p.Reserve
	}
	if p.LongestPacket <= 0 {
		return p.Buffer
	}
	return min(p.Buffer, p.LongestPacket)
}

// slotFlits returns the flits one lane holds at most: the buffer under
// BuffersFIFO, otherwise one packet's share of what its input port and VL
// may hold.
func (p Params) slotFlits() int {
	if p.Buffers == BuffersFIFO || p.LongestPacket <= 0 {
		return p.Held()
	}
	return min(p.Held(), p.LongestPacket)
}

// lanes returns the lanes of a switch with parameters p.
func (p Params) lanes() int { return p.Ports * p.VLs * p.Slots() }

// MaxSlots bounds Params.Slots: a VOQ buffer's slots are one bitmap word.
const MaxSlots = 64

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
	// Allocator matches heads to outputs; the zero value is
	// AllocOldestFirst. Iterations is the number of rounds of AllocISLIP
	// and AllocInputFirst (0 acts as 1).
	Allocator  Allocator
	Iterations int
	// Buffers is the organisation of the input buffers; the zero value is
	// BuffersFIFO. Under BuffersVOQ a buffer holds each of its packets in
	// a slot of its own, Slots() per input port and VL: ShortestPacket
	// and LongestPacket bound the lengths of the packets it will see
	// (0: 1 and MaxPacketFlits).
	Buffers                       Buffers
	ShortestPacket, LongestPacket int
	// Reserve, Alpha and Limit configure BuffersShared: the flits each
	// input port and VL keeps for itself (0: the longest packet, at most
	// Buffer; it must hold the longest packet under CutThrough), the
	// dynamic threshold's factor (0 acts as 1), and the most flits one
	// input port and VL may hold (0: 2 × Buffer; see SharedLimit).
	Reserve int
	Alpha   float64
	Limit   int
	// Classes, if not nil, makes the VL choice dynamic: the routing sees
	// and answers VL classes, and a packet takes, on the port it selects,
	// the VL of its output class that is free, admits it and has the
	// most room downstream (the lowest of equals). Nil, the routing's
	// OutVL names the VL (its VL map).
	Classes *routing.Classes
	// NoPark, a testing aid, looks at every waiting head in every tick
	// and selects again for every eligible one, never passing over a
	// parked or sleeping one: results must not change.
	NoPark bool
}
