package routing

import (
	"bufio"
	"fmt"
	"io"

	"netsim/topologies"
)

// LID numbering of the LFT text: host h has LID h+1 and switch s LID
// hosts+1+s; GUIDs are made up from the indices (switch s: guidSwitch|s+1,
// host h: guidHost|h+1) when the network has no real ones.
const (
	guidSwitch = 0x0002c90300000000
	guidHost   = 0x0002c90400000000
)

// WriteLFT writes the forwarding tables t of net as text in the format of
// OpenSM's LFT dump and ibroute: per switch a header
//
//	Unicast lids [0x1-0x3] of switch Lid 4 guid 0x0002c90300000001 ('S1'):
//	  Lid  Out   Destination
//	       Port     Info
//	0x0001 001 : (Channel Adapter portguid 0x0002c90400000001: 'H1')
//	…
//	3 valid lids dumped
//
// with one line per destination host (LID = host + 1, port = port index
// + 1 as InfiniBand numbers ports from 1). When the paths use more than one
// virtual layer, a block per source switch follows, headed
// "SL of paths from switch Lid 4 guid … ('S1'):", with lines
// "0x0002 001": the SL of the path from that switch to the LID, its
// layer, which Tables.Source gives packets on that path.
func WriteLFT(w io.Writer, t *Tables, net *topologies.Network) error {
	if t.paths > 1 {
		return fmt.Errorf("lft export: the tables have %d LIDs per host (LMC), which netsim's LFT text does not write", t.paths)
	}
	if t.pathSL != nil {
		return fmt.Errorf("lft export: the tables' SLs come per pair of hosts (path records), which SL blocks per source switch cannot hold")
	}
	if len(net.Switches) != t.sws || len(net.Hosts) != t.hosts {
		return fmt.Errorf("lft export: tables are for %d switches and %d hosts, network has %d and %d", t.sws, t.hosts, len(net.Switches), len(net.Hosts))
	}
	swNames, hostNames := net.DisplayNames()
	id := newLFTIdentities(net, t)
	bw := bufio.NewWriter(w)
	header := func(what string, s int) {
		fmt.Fprintf(bw, "%s switch Lid %d guid 0x%016x ('%s'):\n", what, id.swLID[s], id.swGUID[s], swNames[s])
	}
	for s := range t.sws {
		fmt.Fprintf(bw, "Unicast lids [0x1-0x%x] of", id.maxLID)
		header("", s)
		bw.WriteString("  Lid  Out   Destination\n       Port     Info \n")
		n := 0
		for d := range t.hosts {
			if p := t.lft[s*t.hosts+d]; p != noPort {
				fmt.Fprintf(bw, "0x%04x %03d : (Channel Adapter portguid 0x%016x: '%s')\n", id.hostLID[d], int(p)+1, id.hostGUID[d], hostNames[d])
				n++
			}
		}
		fmt.Fprintf(bw, "%d valid lids dumped \n", n)
	}
	if t.layer != nil {
		for s := range t.sws {
			header("SL of paths from", s)
			for d := range t.hosts {
				fmt.Fprintf(bw, "0x%04x %03d\n", id.hostLID[d], t.layer[s*t.hosts+d])
			}
		}
	}
	return bw.Flush()
}

// lftIdentities are the LIDs and GUIDs WriteLFT writes: the fabric's own
// on a network imported from ibnetdiscover output (so that ReadLFT, which
// matches by them there, reads the text back), netsim's made-up ones
// otherwise.
type lftIdentities struct {
	swLID, hostLID   []int
	swGUID, hostGUID []uint64
	maxLID           int // the highest host LID, for the block headers
}

func newLFTIdentities(net *topologies.Network, t *Tables) lftIdentities {
	id := lftIdentities{swLID: make([]int, t.sws), hostLID: make([]int, t.hosts), swGUID: make([]uint64, t.sws), hostGUID: make([]uint64, t.hosts)}
	for s := range t.sws {
		id.swLID[s], id.swGUID[s] = t.hosts+1+s, guidSwitch|uint64(s+1)
	}
	for d := range t.hosts {
		id.hostLID[d], id.hostGUID[d] = d+1, guidHost|uint64(d+1)
	}
	if x := newIBIndex(net); x != nil {
		for s, n := range net.IB.Switches {
			if x.swGUID[s] != 0 {
				id.swGUID[s] = x.swGUID[s]
			}
			if n.LID > 0 {
				id.swLID[s] = n.LID
			}
		}
		for d, n := range net.IB.Hosts {
			if x.hostGUID[d] != 0 {
				id.hostGUID[d] = x.hostGUID[d]
			}
			if n.LID > 0 {
				id.hostLID[d] = n.LID
			}
		}
	}
	for _, l := range id.hostLID {
		id.maxLID = max(id.maxLID, l)
	}
	return id
}
