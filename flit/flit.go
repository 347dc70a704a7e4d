// Package flit holds what moves through a simulated network: packets, kept
// in a pool and addressed by index, and the FIFO buffers of their flits.
//
// A flit is not an object: a buffer slot records only the index of its
// packet and the cycle it arrives, and a packet's flits are contiguous in a
// virtual lane's FIFO, so head and tail follow from a count of departed
// flits.
package flit

import (
	"fmt"

	"netsim/kernel"
)

// Packet is one packet in flight or waiting at its source.
type Packet struct {
	Src, Dst int32
	// DLID is the destination LID the source routing chose.
	DLID int32
	// Flits is the packet length.
	Flits int32
	// Created is the cycle the source generated the packet.
	Created kernel.Time
	// Hops counts the switches the packet's head has left.
	Hops int32
	// Received counts the flits delivered to the destination so far.
	Received int32
	// VL is the virtual lane the packet is injected on.
	VL int16
	// Measured marks packets created during the measurement window.
	Measured bool
}

// Pool stores packets by index and recycles the indices of delivered ones,
// so a steady-state simulation allocates nothing per packet.
type Pool struct {
	pkts []Packet
	free []int32
	live int
}

// New returns the index of a fresh zeroed packet.
func (p *Pool) New() int32 {
	p.live++
	if n := len(p.free); n > 0 {
		i := p.free[n-1]
		p.free = p.free[:n-1]
		p.pkts[i] = Packet{}
		return i
	}
	p.pkts = append(p.pkts, Packet{})
	return int32(len(p.pkts) - 1)
}

// Get returns the packet at index i. The pointer is valid until the next
// call to New.
func (p *Pool) Get(i int32) *Packet { return &p.pkts[i] }

// Release returns index i to the pool.
func (p *Pool) Release(i int32) {
	p.live--
	p.free = append(p.free, i)
}

// Live returns the number of packets not yet released.
func (p *Pool) Live() int { return p.live }

// Slot is one flit in a buffer: its packet and the cycle it is (or will be)
// in the buffer, kept modulo 2³² (see Ready).
type Slot struct {
	Pkt   int32
	ready uint32
}

// NewSlot returns the slot of a flit of packet pkt that is in the buffer
// from cycle ready on.
func NewSlot(pkt int32, ready kernel.Time) Slot { return Slot{Pkt: pkt, ready: uint32(ready)} }

// ReadyBy reports whether the flit is in the buffer at cycle now. Arrival
// times are at most 2³¹ cycles from now, so the wrapped difference is exact.
func (s Slot) ReadyBy(now kernel.Time) bool { return int32(uint32(now)-s.ready) >= 0 }

// Ready returns the cycle the flit is in the buffer, given a cycle now less
// than 2³¹ cycles away from it.
func (s Slot) Ready(now kernel.Time) kernel.Time {
	return now - kernel.Time(int32(uint32(now)-s.ready))
}

// Run is a run of flits of one packet that are in a buffer from
// consecutive cycles on: Ready(first) = r, the next r+1, and so on. A packet
// sent without a stall is one run, whatever its length.
type Run struct {
	Pkt   int32
	ready uint32 // the first flit's cycle, modulo 2³²
	n     uint16
}

// Queue is a bounded FIFO of flits: one virtual lane of an input buffer.
// Flits are pushed when they are sent by the upstream port, with the cycle
// they arrive, so the flits on the wire count against the capacity exactly
// as the credits that let them be sent.
//
// The flits are kept as runs. The oldest and the newest run are held in
// the Queue itself and the ones between in a ring the caller provides (a
// lane's share of a switch-wide slab, at least RingRuns(capacity) long), so
// moving the flits of a packet touches the ring about once per packet, not
// once per flit. Timing stays exact per flit.
type Queue struct {
	front, back Run
	head, mid   uint16 // ring position and number of runs in the ring
	n           uint16 // flits in the queue
}

// RingRuns returns the ring length a Queue of capacity flits needs.
func RingRuns(capacity int) int { return max(capacity-2, 0) }

// Len returns the number of flits in the queue, arrived or on the wire.
func (q *Queue) Len() int { return int(q.n) }

// Push appends a flit of packet pkt that is in the buffer from cycle ready
// on. The queue holds at most capacity flits (below 2¹⁶: counts are 16-bit);
// overflow is a flow-control bug and panics.
func (q *Queue) Push(ring []Run, capacity int, pkt int32, ready kernel.Time) {
	if int(q.n) >= capacity {
		panic(fmt.Sprintf("flit: buffer overflow (%d flits): flow control let a flit through without room", q.n))
	}
	r := uint32(ready)
	q.n++
	if q.n == 1 {
		q.front = Run{Pkt: pkt, ready: r, n: 1}
		return
	}
	last := &q.back
	if last.n == 0 { // then the ring is empty too
		last = &q.front
	}
	if last.Pkt == pkt && last.ready+uint32(last.n) == r {
		last.n++
		return
	}
	if q.back.n > 0 {
		i := int(q.head) + int(q.mid)
		if i >= len(ring) {
			i -= len(ring)
		}
		ring[i] = q.back
		q.mid++
	}
	q.back = Run{Pkt: pkt, ready: r, n: 1}
}

// Front returns the oldest flit; the queue must not be empty.
func (q *Queue) Front() Slot { return Slot{Pkt: q.front.Pkt, ready: q.front.ready} }

// Pop removes the oldest flit; the queue must not be empty.
func (q *Queue) Pop(ring []Run) {
	if q.n == 0 {
		panic("flit: pop from an empty buffer")
	}
	q.n--
	q.front.n--
	q.front.ready++
	if q.front.n > 0 {
		return
	}
	if q.mid > 0 {
		q.front = ring[q.head]
		q.head++
		if int(q.head) == len(ring) {
			q.head = 0
		}
		q.mid--
		return
	}
	q.front, q.back = q.back, Run{}
}

// Receiver is the input side of a link: a switch input port or a NIC.
type Receiver interface {
	// Accept takes a flit of packet pkt sent at now on vl into input port
	// port; it is in the receiver's buffer at arrive.
	Accept(now kernel.Time, port, vl int, pkt int32, arrive kernel.Time)
}

// Sender is the output side of a link: a switch or a NIC that may wait for
// flow control.
type Sender interface {
	// Unblock tells the sender that flow control on one of its ports may
	// let it send again at time at.
	Unblock(at kernel.Time)
}
