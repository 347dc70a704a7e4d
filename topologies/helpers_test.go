package topologies

import "testing"

// diameter returns the largest switch-to-switch hop distance, by a BFS from
// every switch, or -1 when the switch graph is disconnected.
func diameter(t *testing.T, net *Network) int {
	t.Helper()
	n := len(net.Switches)
	dist := make([]int, n)
	queue := make([]int, 0, n)
	d := 0
	for src := range n {
		for i := range dist {
			dist[i] = -1
		}
		dist[src] = 0
		queue = append(queue[:0], src)
		for len(queue) > 0 {
			s := queue[0]
			queue = queue[1:]
			for _, p := range net.Switches[s].Ports {
				if p.Kind == SwitchPort && dist[p.Peer] < 0 {
					dist[p.Peer] = dist[s] + 1
					queue = append(queue, int(p.Peer))
				}
			}
		}
		for _, x := range dist {
			if x < 0 {
				return -1
			}
			d = max(d, x)
		}
	}
	return d
}

// checkHosts checks that there are switches·c hosts, numbered switch-major
// on ports 0..c-1.
func checkHosts(t *testing.T, net *Network, c int) {
	t.Helper()
	if got, want := len(net.Hosts), len(net.Switches)*c; got != want {
		t.Fatalf("hosts = %d, want %d", got, want)
	}
	for h, a := range net.Hosts {
		if int(a.Switch) != h/c || int(a.Port) != h%c {
			t.Fatalf("host %d at switch %d port %d, want switch %d port %d", h, a.Switch, a.Port, h/c, h%c)
		}
	}
	for s := range net.Switches {
		for p := range c {
			if q := net.Switches[s].Ports[p]; q.Kind != HostPort || q.Dim != -1 {
				t.Fatalf("switch %d port %d = %+v, want a host port with Dim -1", s, p, q)
			}
		}
	}
}

// checkMixedRadix checks that every switch's coordinates spell its index as
// a mixed-radix number over dims, dimension 0 least significant, which also
// makes the coordinates distinct.
func checkMixedRadix(t *testing.T, net *Network, dims []int) {
	t.Helper()
	for s := range net.Switches {
		c := net.Switches[s].Coord
		if len(c) != len(dims) {
			t.Fatalf("switch %d has %d coordinates, want %d", s, len(c), len(dims))
		}
		idx, place := 0, 1
		for n, k := range dims {
			if c[n] < 0 || int(c[n]) >= k {
				t.Fatalf("switch %d coordinate %d = %d out of [0,%d)", s, n, c[n], k)
			}
			idx += int(c[n]) * place
			place *= k
		}
		if idx != s {
			t.Fatalf("switch %d has coordinates %v, which spell %d", s, c, idx)
		}
	}
}
