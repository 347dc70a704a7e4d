package routing

import "netsim/topologies"

// ftreeRoutes fills t with ftree routes in the manner of OpenSM's ftree
// (Zahavi): per destination host d (index order), on d's leaf L,
//
//  1. a chain climbs from L to the top level, each switch taking the up
//     link that carries the fewest destinations downward so far (ties:
//     the lowest port); the switch above sets d's entry down that link;
//     only these chain entries count as downward load;
//  2. every other switch with L in its subtree goes down, by the least
//     loaded port toward L;
//  3. from each chain switch in turn, lowest level first, a breadth-first
//     walk down its subtree gives every switch not yet routed an up entry
//     toward the switch it was reached from, so that all traffic to d
//     meets the chain at the lowest level it can and then follows it down;
//  4. switches still without an entry take their least loaded up port.
//
// So each destination has one down path from the top, and down paths
// are spread evenly over the links (on a k-ary n-tree every top switch
// carries the same number of destinations). level, below and words are
// those of newTreeRouting; load counts the destinations per switch port.
func ftreeRoutes(t *Tables, net *topologies.Network, level []int32, below []uint64, words int, load [][]int32) {
	n := len(net.Switches)
	routed := make([]bool, n)
	// down counts the chains' down routes per switch port: the other
	// down entries (step 2) carry no traffic from below and do not count.
	down := make([][]int32, n)
	for s, sw := range net.Switches {
		down[s] = make([]int32, len(sw.Ports))
	}
	var chain, queue []int32
	for d, a := range net.Hosts {
		leaf := a.Switch
		hasLeaf := func(s int32) bool { return below[int(s)*words+int(leaf)/64]&(1<<(leaf%64)) != 0 }
		for s := range routed {
			routed[s] = false
		}
		routed[leaf] = true
		set := func(s, port int32) {
			t.lft[int(s)*t.hosts+d] = uint16(port)
			load[s][port]++
			routed[s] = true
		}
		// 1. The chain.
		chain = chain[:0]
		for cur := leaf; ; {
			best, bestUp := int32(-1), int32(-1)
			for pi, p := range net.Switches[cur].Ports {
				if p.Kind == topologies.SwitchPort && level[p.Peer] > level[cur] &&
					(best < 0 || down[p.Peer][p.PeerPort] < down[net.Switches[cur].Ports[best].Peer][bestUp]) {
					best, bestUp = int32(pi), p.PeerPort
				}
			}
			if best < 0 {
				break
			}
			up := net.Switches[cur].Ports[best].Peer
			set(up, bestUp)
			down[up][bestUp]++
			chain = append(chain, up)
			cur = up
		}
		// 2. Down from every other switch above L.
		for s := range int32(n) {
			if routed[s] || !hasLeaf(s) {
				continue
			}
			best := int32(-1)
			for pi, p := range net.Switches[s].Ports {
				if p.Kind == topologies.SwitchPort && level[p.Peer] < level[s] && hasLeaf(p.Peer) &&
					(best < 0 || load[s][pi] < load[s][best]) {
					best = int32(pi)
				}
			}
			if best >= 0 {
				set(s, best)
			}
		}
		// 3. Up toward the chain, from its subtrees.
		for _, c := range chain {
			queue = append(queue[:0], c)
			for head := 0; head < len(queue); head++ {
				x := queue[head]
				for _, p := range net.Switches[x].Ports {
					if p.Kind != topologies.SwitchPort || level[p.Peer] >= level[x] || routed[p.Peer] {
						continue
					}
					set(p.Peer, p.PeerPort)
					queue = append(queue, p.Peer)
				}
			}
		}
		// 4. The rest go up.
		for s := range int32(n) {
			if routed[s] {
				continue
			}
			best := int32(-1)
			for pi, p := range net.Switches[s].Ports {
				if p.Kind == topologies.SwitchPort && level[p.Peer] > level[s] && (best < 0 || load[s][pi] < load[s][best]) {
					best = int32(pi)
				}
			}
			if best >= 0 {
				set(s, best)
			}
		}
	}
}
