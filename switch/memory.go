package switching

import (
	"unsafe"

	"netsim/flit"
	"netsim/flowctl"
	"netsim/routing"
)

// StorageBytes returns the bytes NewStorage allocates for switches of the
// parameters params: their ports, lanes and buffers.
func StorageBytes(params []Params) int64 {
	var ports, times, lanes, slots int64
	for _, p := range params {
		ports += int64(p.Ports)
		times += int64(p.Ports) * int64(max(p.Speedup, 1)+1)
		lanes += int64(p.lanes())
		slots += int64(p.lanes()) * int64(flit.RingRuns(p.slotFlits()))
	}
	return ports*int64(unsafe.Sizeof(flowctl.Link{})+unsafe.Sizeof(outPort{})+unsafe.Sizeof(outSel{})) +
		times*int64(unsafe.Sizeof(inRun{})) +
		lanes*int64(unsafe.Sizeof(lane{})+unsafe.Sizeof(uint32(0))+unsafe.Sizeof(park{})) +
		slots*int64(unsafe.Sizeof(flit.Run{}))
}

// Bytes returns the bytes New allocates for a switch of parameters p
// beside its share of a Storage: its record, its tables of senders,
// generations, sleeping lanes and candidates, an allocator's state and
// the virtual output queues or shared memory of its buffers.
func (p Params) Bytes() int64 {
	ports, vls, lanes := int64(p.Ports), int64(p.VLs), int64(p.lanes())
	words := (lanes + 63) / 64
	b := int64(unsafe.Sizeof(Switch{})) +
		ports*int64(unsafe.Sizeof(flit.Sender(nil))+unsafe.Sizeof(portSender{})+unsafe.Sizeof(routing.Candidate{})+unsafe.Sizeof(closedOut{})+4) +
		4*portBits + 4*ports*vls + 8*sleepSlots*words + 8*2*words
	if p.Allocator != AllocOldestFirst {
		b += ports*vls*int64(unsafe.Sizeof(request{})+4) + ports*(4+1+4+1+4+4)
	}
	if p.Buffers != BuffersFIFO {
		b += ports*vls*int64(unsafe.Sizeof(voqLane{})) + 4*lanes
	}
	if p.Buffers == BuffersShared {
		b += int64(unsafe.Sizeof(sharedMem{})) + ports*vls*int64(unsafe.Sizeof(sharedIn{})) + (ports*vls+63)/64*8
	}
	return b
}
