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
// in the buffer. The cycle is kept modulo 2³² (see Ready) so a slot takes
// eight bytes; buffers of a large network are the simulator's main memory.
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

// Queue is a bounded FIFO of flits: one virtual lane of an input buffer.
// Flits are pushed when they are sent by the upstream port, with the cycle
// they arrive, so the flits on the wire count against the capacity exactly
// as the credits that let them be sent. The front flit is kept in the Queue
// itself, so looking at it does not touch the ring.
type Queue struct {
	front Slot
	slots []Slot // the flits behind the front, a ring
	head  int32
	n     int32 // flits in the queue, the front included
}

// NewQueue returns an empty queue of capacity flits (at least 1) backed by
// store, which must have room for capacity−1 slots; nil allocates it.
func NewQueue(capacity int, store []Slot) Queue {
	rest := max(capacity-1, 0)
	if store == nil {
		store = make([]Slot, rest)
	}
	return Queue{slots: store[:rest:rest]}
}

// Len returns the number of flits in the queue, arrived or on the wire.
func (q *Queue) Len() int { return int(q.n) }

// Cap returns the capacity in flits.
func (q *Queue) Cap() int { return len(q.slots) + 1 }

// Push appends a flit. Overflow is a flow-control bug and panics.
func (q *Queue) Push(s Slot) {
	if q.n == 0 {
		q.front = s
		q.n = 1
		return
	}
	rest := q.n - 1
	if int(rest) == len(q.slots) {
		panic(fmt.Sprintf("flit: buffer overflow (%d flits): flow control let a flit through without room", q.n))
	}
	i := q.head + rest
	if int(i) >= len(q.slots) {
		i -= int32(len(q.slots))
	}
	q.slots[i] = s
	q.n++
}

// Front returns the oldest flit; the queue must not be empty.
func (q *Queue) Front() Slot { return q.front }

// Pop removes the oldest flit; the queue must not be empty.
func (q *Queue) Pop() {
	switch q.n {
	case 0:
		panic("flit: pop from an empty buffer")
	case 1:
		q.n = 0
		return
	}
	q.front = q.slots[q.head]
	q.head++
	if int(q.head) == len(q.slots) {
		q.head = 0
	}
	q.n--
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
