package routing

import (
	"strconv"

	"netsim/topologies"
)

// ibIndex holds the InfiniBand identities of a network imported from
// ibnetdiscover output (topologies.IBInfo) as numbers and maps, for the
// readers of a fabric's dumps and the engines that order by GUID.
type ibIndex struct {
	hosts int
	// swGUID[s] is switch s's node GUID, hostGUID[h] host h's CA port
	// GUID; 0 when the file does not give it.
	swGUID, hostGUID []uint64
	// caGUID[h] is the node GUID of host h's CA (0 when not given).
	caGUID []uint64
	// swByGUID and hostByGUID invert them.
	swByGUID, hostByGUID map[uint64]int
	// byLID maps each LID the file gives to its node: host h is h,
	// switch s is hosts+s.
	byLID map[int]int
}

// newIBIndex indexes net's identities, or returns nil when net has none
// (it was not imported from ibnetdiscover output).
func newIBIndex(net *topologies.Network) *ibIndex {
	ib := net.IB
	if ib == nil || len(ib.Switches) != len(net.Switches) || len(ib.Hosts) != len(net.Hosts) {
		return nil
	}
	x := &ibIndex{hosts: len(net.Hosts), swGUID: make([]uint64, len(ib.Switches)), hostGUID: make([]uint64, len(ib.Hosts)),
		swByGUID: make(map[uint64]int, len(ib.Switches)), hostByGUID: make(map[uint64]int, len(ib.Hosts)), byLID: map[int]int{}}
	for s, n := range ib.Switches {
		if g, err := strconv.ParseUint(n.GUID, 16, 64); err == nil {
			x.swGUID[s], x.swByGUID[g] = g, s
		}
		if n.LID > 0 {
			x.byLID[n.LID] = x.hosts + s
		}
	}
	x.caGUID = make([]uint64, len(ib.Hosts))
	for h, n := range ib.Hosts {
		if g, err := strconv.ParseUint(n.GUID, 16, 64); err == nil {
			x.caGUID[h] = g
		}
		if g, err := strconv.ParseUint(n.PortGUID, 16, 64); err == nil {
			x.hostGUID[h], x.hostByGUID[g] = g, h
		}
		if n.LID > 0 {
			x.byLID[n.LID] = h
		}
	}
	return x
}
