package routing

import (
	"fmt"

	"netsim/topologies"
)

// hostTable is the per-host part of a routing: where each destination is
// attached and which VL packets to it use.
type hostTable struct {
	sw   []int32 // switch of each host
	port []int32 // port of each host on its switch
	vl   []uint8 // VL of packets to each host: local index mod VLs
}

// newHostTable builds the host table of a regular network (HostsPerSwitch
// C > 0, hosts numbered switch-major), giving packets to host h the VL
// (h mod C) mod vls: the destination's local index within its switch,
// folded onto the available VLs.
func newHostTable(net *topologies.Network, vls int) (hostTable, error) {
	c := net.HostsPerSwitch
	if c < 1 {
		return hostTable{}, fmt.Errorf("network %s has no fixed number of hosts per switch (got %d)", net.Kind, c)
	}
	if len(net.Hosts) == 0 {
		return hostTable{}, fmt.Errorf("network %s has no hosts", net.Kind)
	}
	t := hostTable{
		sw:   make([]int32, len(net.Hosts)),
		port: make([]int32, len(net.Hosts)),
		vl:   make([]uint8, len(net.Hosts)),
	}
	for h, a := range net.Hosts {
		if int(a.Switch) != h/c {
			return hostTable{}, fmt.Errorf("host %d is on switch %d, but switch-major numbering with %d hosts per switch puts it on switch %d", h, a.Switch, c, h/c)
		}
		t.sw[h], t.port[h] = a.Switch, a.Port
		t.vl[h] = uint8(h % c % vls)
	}
	return t, nil
}

// source implements Routing.Source on SL 0: the DLID is the destination
// host index.
// An out-of-range destination gets DLID -1, for which Route returns no
// candidates.
func (t *hostTable) source(dst int) (dlid int32, sl, vl int) {
	if uint(dst) >= uint(len(t.vl)) {
		return -1, 0, 0
	}
	return int32(dst), 0, int(t.vl[dst])
}

// valid reports whether dlid names a host.
func (t *hostTable) valid(dlid int32) bool {
	return uint32(dlid) < uint32(len(t.sw))
}
