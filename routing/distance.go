package routing

import (
	"fmt"
	"strconv"
	"strings"

	"netsim/keyerr"
	"netsim/topologies"
)

// Limits of the distance routings.
const (
	// MaxDistanceSwitches bounds the switches of a network the distance
	// routings accept: their distance table takes one byte per ordered
	// pair of switches, 64 MiB at the limit.
	MaxDistanceSwitches = 1 << 13
	// MaxDistanceDiameter bounds the switch diameter (distances are kept
	// in bytes).
	MaxDistanceDiameter = 255
	// MaxExtraHops bounds E in distance+E and deflection+E.
	MaxExtraHops = 255
)

// distance is Distance Based routing of seed 004 §3.7 (distance+E, and
// deflection+E when deflect is set); see New.
type distance struct {
	name    string
	extra   int32 // E
	deflect bool
	vls     int32 // V, the modulus of the VL arithmetic
	n       int32 // switches
	diam    int32
	// dist[a·n+b] is the number of switch-to-switch hops from a to b.
	dist []uint8
	// Hosts: the switch and port each host hangs on.
	hostSw, hostPort []int32
	// The neighbour groups of switch s are nbrStart[s] ≤ g < nbrStart[s+1]:
	// group g is the ports ports[grpStart[g]:grpStart[g+1]], every link from
	// s to switch nbrSw[g].
	nbrStart, nbrSw, grpStart, ports []int32
	// toHost[portStart[s]+p] says whether port p of switch s is a host
	// port (OutVL keeps the VL on the link to a host).
	portStart []int32
	toHost    []bool
}

// parseDistance parses the name of a distance routing: "distance"
// (E = 0), "distance+E" (E ≥ 0) or "deflection+E" (E ≥ 2). ok is false
// when name is not of this family; err reports a malformed member,
// naming the algorithm key.
func parseDistance(name string) (extra int, deflect, ok bool, err error) {
	var arg string
	switch {
	case name == "distance":
		return 0, false, true, nil
	case strings.HasPrefix(name, "distance+"):
		arg = name[len("distance+"):]
	case name == "deflection":
		return 0, false, false, keyerr.New("algorithm", "%q needs extra hops, as deflection+E with E ≥ 2", name)
	case strings.HasPrefix(name, "deflection+"):
		arg, deflect = name[len("deflection+"):], true
	default:
		return 0, false, false, nil
	}
	extra, err = strconv.Atoi(arg)
	if err != nil || arg == "" || arg[0] < '0' || arg[0] > '9' {
		return 0, false, false, keyerr.New("algorithm", "%q: extra hops E must be a non-negative integer, got %q", name, arg)
	}
	if extra > MaxExtraHops {
		return 0, false, false, keyerr.New("algorithm", "%q: extra hops E = %d exceed the limit of %d", name, extra, MaxExtraHops)
	}
	if deflect && extra < 2 {
		return 0, false, false, keyerr.New("algorithm", "%q: deflection needs E ≥ 2 extra hops, got %d", name, extra)
	}
	if canon := distanceName(extra, deflect); name != canon {
		// One routing, one name: results and tables key on it.
		return 0, false, false, keyerr.New("algorithm", "%q: write it %q (one name per routing)", name, canon)
	}
	return extra, deflect, true, nil
}

// distanceName returns the canonical name of a distance routing.
func distanceName(extra int, deflect bool) string {
	switch {
	case deflect:
		return "deflection+" + strconv.Itoa(extra)
	case extra == 0:
		return "distance"
	default:
		return "distance+" + strconv.Itoa(extra)
	}
}

// newDistance builds distance+extra (deflection+extra when deflect) for
// net, which must be valid (Network.Validate), with vls virtual lanes.
func newDistance(net *topologies.Network, vls, extra int, deflect bool) (*distance, error) {
	r := &distance{
		name:    distanceName(extra, deflect),
		extra:   int32(extra),
		deflect: deflect,
		vls:     int32(vls),
		n:       int32(len(net.Switches)),
	}
	if r.n > MaxDistanceSwitches {
		return nil, keyerr.New("algorithm", "routing %s keeps a table of n² switch distances and supports at most %d switches, network has %d",
			r.name, MaxDistanceSwitches, r.n)
	}
	r.hostSw = make([]int32, len(net.Hosts))
	r.hostPort = make([]int32, len(net.Hosts))
	for h, a := range net.Hosts {
		r.hostSw[h], r.hostPort[h] = a.Switch, a.Port
	}
	r.neighbours(net)
	if err := r.distances(); err != nil {
		return nil, keyerr.New("algorithm", "routing %s: %w", r.name, err)
	}
	return r, nil
}

// neighbours fills the neighbour groups and the host-port flags from the
// ports of net: the groups of a switch come in the order of their first
// port, and each group's ports in port order.
func (r *distance) neighbours(net *topologies.Network) {
	n := int(r.n)
	r.nbrStart = make([]int32, n+1)
	r.portStart = make([]int32, n+1)
	total, links := 0, 0
	for s := range net.Switches {
		total += len(net.Switches[s].Ports)
		for _, p := range net.Switches[s].Ports {
			if p.Kind == topologies.SwitchPort {
				links++
			}
		}
	}
	r.toHost = make([]bool, total)
	r.ports = make([]int32, 0, links)
	r.grpStart = make([]int32, 0, links+1)
	slot := make([]int32, n) // group index of each peer of the current switch, or -1
	var count, next []int32  // ports per group of the current switch; fill positions
	for i := range slot {
		slot[i] = -1
	}
	for s := range net.Switches {
		ports := net.Switches[s].Ports
		r.nbrStart[s] = int32(len(r.nbrSw))
		r.portStart[s+1] = r.portStart[s] + int32(len(ports))
		count = count[:0]
		for p, port := range ports {
			r.toHost[int(r.portStart[s])+p] = port.Kind == topologies.HostPort
			if port.Kind != topologies.SwitchPort {
				continue
			}
			if slot[port.Peer] < 0 {
				slot[port.Peer] = int32(len(count))
				r.nbrSw = append(r.nbrSw, port.Peer)
				count = append(count, 0)
			}
			count[slot[port.Peer]]++
		}
		// Lay the groups out, then drop each port into its group.
		base := int32(len(r.ports))
		first := len(r.grpStart)
		for _, c := range count {
			r.grpStart = append(r.grpStart, base)
			base += c
		}
		r.ports = r.ports[:base]
		fill := r.grpStart[first:]
		next = append(next[:0], fill...)
		for p, port := range ports {
			if port.Kind != topologies.SwitchPort {
				continue
			}
			g := slot[port.Peer]
			r.ports[next[g]] = int32(p)
			next[g]++
		}
		for _, v := range r.nbrSw[r.nbrStart[s]:] {
			slot[v] = -1
		}
	}
	r.nbrStart[n] = int32(len(r.nbrSw))
	r.grpStart = append(r.grpStart, int32(len(r.ports)))
}

// distances fills dist by a breadth-first search from every switch over
// the neighbour groups, and the diameter. It fails if some switch cannot
// reach another, or the diameter exceeds MaxDistanceDiameter.
func (r *distance) distances() error {
	n := int(r.n)
	r.dist = make([]uint8, n*n)
	seen := make([]bool, n)
	queue := make([]int32, n)
	for s := range n {
		row := r.dist[s*n : (s+1)*n]
		clear(seen)
		seen[s] = true
		queue[0] = int32(s)
		head, tail := 0, 1
		for head < tail {
			u := queue[head]
			head++
			du := int32(row[u]) + 1
			for _, v := range r.nbrSw[r.nbrStart[u]:r.nbrStart[u+1]] {
				if seen[v] {
					continue
				}
				if du > MaxDistanceDiameter {
					return fmt.Errorf("switch %d is more than %d hops from switch %d; distances above %d are not supported",
						v, MaxDistanceDiameter, s, MaxDistanceDiameter)
				}
				seen[v] = true
				row[v] = uint8(du)
				r.diam = max(r.diam, du)
				queue[tail] = v
				tail++
			}
		}
		if tail < n {
			for v, ok := range seen {
				if !ok {
					return fmt.Errorf("network is disconnected: switch %d cannot reach switch %d", s, v)
				}
			}
		}
	}
	return nil
}

// Name implements Routing: "distance", "distance+E" or "deflection+E".
func (r *distance) Name() string { return r.name }

// VLs implements Routing: the VLs a packet may use, min(V, diameter + E +
// 1) (its VL arithmetic is modulo V, and no packet starts above VL
// diameter + E). It runs with any V ≥ 1; see New for when it is
// deadlock-free.
func (r *distance) VLs() int { return int(min(r.vls, r.diam+r.extra+1)) }

// SLs implements Routing: one SL.
func (r *distance) SLs() int { return 1 }

// Diameter returns the largest switch-to-switch distance of the network.
func (r *distance) Diameter() int { return int(r.diam) }

// Source implements Routing: DLID = dst, VL = (D + E) mod V with D the
// distance between the switches of src and dst.
func (r *distance) Source(src, dst int) (dlid int32, sl, vl int) {
	if uint(dst) >= uint(len(r.hostSw)) || uint(src) >= uint(len(r.hostSw)) {
		return -1, 0, 0
	}
	d := int32(r.dist[int(r.hostSw[src])*int(r.n)+int(r.hostSw[dst])])
	return int32(dst), 0, int((d + r.extra) % r.vls)
}

// Route implements Routing in O(ports of sw) without allocating (when out
// has room for every port of sw). With d the distance from sw to the
// destination switch, out = (inVL − 1) mod V the output VL and dp the
// distance from the neighbour a port leads to: High if dp < d, Medium if
// dp = d ≤ out, Low if d < dp ≤ out and the routing deflects. At the
// destination switch the candidate is the destination host's port.
func (r *distance) Route(sw, inPort, inVL, sl int, dlid int32, out []Candidate) []Candidate {
	if uint32(dlid) >= uint32(len(r.hostSw)) || uint(sw) >= uint(r.n) {
		return out
	}
	dsw := r.hostSw[dlid]
	if int32(sw) == dsw {
		return append(out, Candidate{Port: r.hostPort[dlid], Priority: High})
	}
	// Distances are symmetric, so the destination's row holds the distance
	// from every neighbour in one place.
	row := r.dist[int(dsw)*int(r.n) : int(dsw+1)*int(r.n)]
	d := int(row[sw])
	// Links are symmetric (Network.Validate), so a neighbour is one hop
	// nearer, as far, or one hop farther: prio[d−dp+1] is the priority of
	// a neighbour at distance dp, 0 when it is no candidate. A table
	// lookup, not a branch per class: the classes of the neighbours come
	// in no order a branch predictor can learn.
	budget := int(r.outVL(inVL))
	var prio [3]Priority
	prio[2] = High
	if d <= budget {
		prio[1] = Medium
	}
	if r.deflect && d+1 <= budget {
		prio[0] = Low
	}
	for g := r.nbrStart[sw]; g < r.nbrStart[sw+1]; g++ {
		pr := prio[d+1-int(row[r.nbrSw[g]])]
		if pr == 0 {
			continue
		}
		for _, p := range r.ports[r.grpStart[g]:r.grpStart[g+1]] {
			out = append(out, Candidate{Port: p, Priority: pr})
		}
	}
	return out
}

// outVL returns (inVL − 1) mod V.
func (r *distance) outVL(inVL int) int32 {
	if uint(inVL) < uint(r.vls) {
		// A lane of the switch: no division (one per packet and switch
		// in Route, one per candidate in OutVL).
		if inVL == 0 {
			return r.vls - 1
		}
		return int32(inVL - 1)
	}
	v := (inVL - 1) % int(r.vls)
	if v < 0 {
		v += int(r.vls)
	}
	return int32(v)
}

// OutVL implements Routing: (inVL − 1) mod V on a link to a switch, inVL
// on the link to a host.
func (r *distance) OutVL(sw, inPort, inVL, sl, outPort int) int {
	if uint(sw) < uint(r.n) && uint(outPort) < uint(r.portStart[sw+1]-r.portStart[sw]) && r.toHost[int(r.portStart[sw])+outPort] {
		return inVL
	}
	return int(r.outVL(inVL))
}
