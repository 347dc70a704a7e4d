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
	"sync/atomic"

	"netsim/kernel"
)

// Packet is one packet in flight or waiting at its source.
type Packet struct {
	Src, Dst int32
	// DLID is the destination LID the source routing chose.
	DLID int32
	// Flits is the packet length (at most 65,535 flits,
	// switching.MaxPacketFlits).
	Flits uint16
	// Received counts the flits delivered to the destination so far.
	Received uint16
	// Created is the cycle the source generated the packet.
	Created kernel.Time
	// Hops counts the switches the packet's head has left (it stops at
	// 65,535).
	Hops uint16
	// MediumHops and LowHops count those of its hops that took a
	// candidate of priority Medium (sideways) or Low (deflection; for the
	// Dragonfly's adaptive routings, any non-minimal hop) in the switch's
	// selection (they stop at 255): the rest took High, minimal, ports.
	MediumHops, LowHops uint8
	// Waited is the cycles the packet waited at its source, from its
	// creation until its head left (it stops at 2³¹ − 1).
	Waited int32
	// Seq numbers the packets of a flow (an exchange between two NICs),
	// so the destination can count those that arrive out of order; 0
	// otherwise.
	Seq int32
	// VL is the virtual lane the packet is injected on (below 16).
	VL uint8
	// SL is the service level the source chose (0 to 15); switches pass
	// it to the routing, and it never changes.
	SL uint8
	// Measured marks packets created during the measurement window.
	Measured bool
	// Probe holds the flags of a route probe (seed 001 §4.3): Probe,
	// Reply, Blocked; 0 for data packets.
	Probe uint8
}

// Flags of Packet.Probe.
const (
	// Probe marks a probe sent along an alternative route.
	Probe uint8 = 1 << iota
	// Reply marks the destination's answer to a probe.
	Reply
	// Blocked says a switch could not forward the probe at once.
	Blocked
)

// Pool stores packets by index and recycles the indices of delivered ones,
// so a steady-state simulation allocates nothing per packet.
//
// Packets live in chunks of ChunkPackets that never move, so a pointer
// from Get stays valid. Several pools may share their chunks (Share): a
// network simulated on several threads gives each partition its own
// pool, and a packet created in one partition keeps its index in every
// other; the partition that delivers it recycles the index. The zero value
// is an empty pool.
type Pool struct {
	chunks *chunks
	// next and end are the fresh indices left in the chunk the pool
	// took last.
	next, end int32
	free      []int32
	live      int
	// oldestFirst reuses the index released first instead of the last
	// (SetOldestFirst).
	oldestFirst bool
}

// ChunkPackets is the number of packets in one chunk of a Pool.
const ChunkPackets = 1 << chunkBits

const (
	chunkBits = 14
	maxChunks = 1 << (31 - chunkBits) // indices are int32
)

// chunks is the storage of the pools that share it.
type chunks struct {
	dir  [maxChunks]*[ChunkPackets]Packet
	used atomic.Int32 // chunks handed out
}

// Share returns an empty pool that shares p's chunks: an index New
// returns in either is valid in both. New and Release on pools that share
// chunks may run concurrently; a packet must be handed from one to the
// other through a synchronising operation (a barrier), as any data.
func (p *Pool) Share() *Pool {
	p.init()
	return &Pool{chunks: p.chunks, oldestFirst: p.oldestFirst}
}

func (p *Pool) init() {
	if p.chunks == nil {
		p.chunks = new(chunks)
	}
}

// SetOldestFirst makes New reuse the index released longest ago rather
// than the latest: packets then get other indices, which must change no
// result (a pool per partition of a network simulated on several threads
// numbers them otherwise too).
func (p *Pool) SetOldestFirst() { p.oldestFirst = true }

// New returns the index of a fresh zeroed packet.
func (p *Pool) New() int32 {
	p.live++
	if n := len(p.free); n > 0 {
		i := p.free[n-1]
		if p.oldestFirst {
			i = p.free[0]
			copy(p.free, p.free[1:])
		}
		p.free = p.free[:n-1]
		*p.Get(i) = Packet{}
		return i
	}
	if p.next == p.end {
		p.init()
		c := p.chunks.used.Add(1) - 1
		if c >= maxChunks {
			panic(fmt.Sprintf("flit: more than %d packets created by pools that share chunks without reusing their indices", int64(maxChunks)*ChunkPackets))
		}
		p.chunks.dir[c] = new([ChunkPackets]Packet)
		p.next, p.end = c<<chunkBits, (c+1)<<chunkBits
	}
	i := p.next
	p.next++
	return i
}

// Get returns the packet at index i.
func (p *Pool) Get(i int32) *Packet {
	return &p.chunks.dir[uint32(i)>>chunkBits&(maxChunks-1)][i&(ChunkPackets-1)]
}

// Release returns index i to the pool (any pool sharing its chunks).
func (p *Pool) Release(i int32) {
	p.live--
	p.free = append(p.free, i)
}

// Rebalance spreads the free indices of pools that share chunks evenly
// among them, so that a pool that releases more packets than it creates
// (the part that delivers the traffic of a hotspot) does not hoard
// indices while the others take fresh chunks. It must not run
// concurrently with any of the pools' methods. Which index a packet gets
// changes no result.
func Rebalance(pools []*Pool) {
	total := 0
	for _, p := range pools {
		total += len(p.free)
	}
	share := total / len(pools)
	d := 0 // the next pool that may give
	for _, r := range pools {
		for len(r.free) < share {
			for len(pools[d].free) <= share {
				d++
			}
			g := pools[d]
			k := min(share-len(r.free), len(g.free)-share)
			r.free = append(r.free, g.free[len(g.free)-k:]...)
			g.free = g.free[:len(g.free)-k]
		}
	}
}

// Chunks returns how many chunks the pools sharing p's have taken.
func (p *Pool) Chunks() int {
	if p.chunks == nil {
		return 0
	}
	return int(p.chunks.used.Load())
}

// Live returns the number of packets this pool created less those it
// released: summed over the pools that share chunks, the packets not yet
// released.
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
//
// A run pushed in cycle t that extends the newest run (merges) is not part
// of the front run in cycle t itself (FrontRun): a switch ticking in cycle
// t then sees the same runs whether the upstream port's tick in t came
// before its own or after.
type Queue struct {
	front, back Run
	head, mid   uint16 // ring position and number of runs in the ring
	n           uint16 // flits in the queue
	// merged is the number of flits the newest run gained by the last
	// merge, pushed in cycle mergedAt (modulo 2³²).
	merged   uint16
	mergedAt uint32
}

// RingRuns returns the ring length a Queue of capacity flits needs.
func RingRuns(capacity int) int { return max(capacity-2, 0) }

// Len returns the number of flits in the queue, arrived or on the wire.
func (q *Queue) Len() int { return int(q.n) }

// Push appends n ≥ 1 flits of packet pkt, sent in cycle now, the first in
// the buffer from cycle ready > now on and each next one a cycle later (a
// run sent back to back; n = 1 is one flit). The queue holds at most
// capacity flits (below 2¹⁶: counts are 16-bit); overflow is a
// flow-control bug and panics.
func (q *Queue) Push(ring []Run, capacity int, pkt int32, now, ready kernel.Time, n int) {
	if int(q.n)+n > capacity {
		panic(fmt.Sprintf("flit: buffer overflow (%d+%d flits): flow control let a flit through without room", q.n, n))
	}
	r := uint32(ready)
	q.n += uint16(n)
	if int(q.n) == n {
		q.front = Run{Pkt: pkt, ready: r, n: uint16(n)}
		q.merged = 0
		return
	}
	last := &q.back
	if last.n == 0 { // then the ring is empty too
		last = &q.front
	}
	if last.Pkt == pkt && last.ready+uint32(last.n) == r {
		last.n += uint16(n)
		if t := uint32(now); q.mergedAt == t && q.merged > 0 {
			q.merged += uint16(n)
		} else {
			q.merged, q.mergedAt = uint16(n), t
		}
		return
	}
	q.merged = 0
	if q.back.n > 0 {
		i := int(q.head) + int(q.mid)
		if i >= len(ring) {
			i -= len(ring)
		}
		ring[i] = q.back
		q.mid++
	}
	q.back = Run{Pkt: pkt, ready: r, n: uint16(n)}
}

// Front returns the oldest flit; the queue must not be empty.
func (q *Queue) Front() Slot { return Slot{Pkt: q.front.Pkt, ready: q.front.ready} }

// FrontRun returns the oldest flit and the length of its run in cycle now:
// the flits of the same packet behind it that are in the buffer one cycle
// after another, so that if the oldest flit is in by cycle t, the i-th is
// in by t+i, leaving out those that joined the run by a push in cycle now
// (unless the run is only those). The queue must not be empty.
func (q *Queue) FrontRun(now kernel.Time) (Slot, int) {
	n := q.front.n
	if q.merged > 0 && q.mergedAt == uint32(now) && q.mid == 0 && q.back.n == 0 && n > q.merged {
		n -= q.merged // the front run is the newest, merged with a run sent now
	}
	return Slot{Pkt: q.front.Pkt, ready: q.front.ready}, int(n)
}

// Pop removes the k oldest flits, 1 ≤ k ≤ the length of the front run.
func (q *Queue) Pop(ring []Run, k int) {
	if k < 1 || k > int(q.front.n) {
		panic(fmt.Sprintf("flit: pop of %d flits from a front run of %d", k, q.front.n))
	}
	q.n -= uint16(k)
	q.front.n -= uint16(k)
	q.front.ready += uint32(k)
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
	// AcceptRun takes a run of k ≥ 1 flits of packet pkt that the sender
	// sends on vl into input port port, one per cycle from now on (k = 1 is
	// one flit). The first is in the receiver's buffer at arrive, the i-th
	// at arrive+i.
	AcceptRun(now kernel.Time, port, vl int, pkt int32, arrive kernel.Time, k int)
}

// Sender is the output side of a link: a switch or a NIC that may wait for
// flow control.
type Sender interface {
	// Unblock tells the sender that flow control on VL vl of one of its
	// ports may let it send again at time at.
	Unblock(vl int, at kernel.Time)
}
