package congestion

import (
	"fmt"
	"math/bits"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

	"netsim/keyerr"
	"netsim/routing"
	"netsim/topologies"
)

// Path policies: which candidate a path takes where the routing offers
// several. ORCS assumes one path per pair (InfiniBand's linear forwarding
// tables); a routing of package routing may offer several candidates (the
// adaptive ones), and the policy turns it into an oblivious one.
const (
	// PolicyFirst takes the first candidate of the highest priority
	// offered: exact for destination-based tables (one candidate).
	PolicyFirst = "first"
	// PolicyDest takes candidate dst mod n among the n candidates of the
	// highest priority: a destination-modulo spreading (d-mod-k on trees).
	PolicyDest = "dest"
)

// Policies lists the path policies.
func Policies() []string { return []string{PolicyFirst, PolicyDest} }

// Paths is a routing reduced to one path per ordered pair of hosts, as
// channel indices. Channel h < Hosts is the injection link of host h;
// channel Hosts + base(sw) + port is output port port of switch sw (a
// switch-to-switch link or a host's ejection link).
//
// Paths are stored per source switch: the path of the first host of the
// switch to each destination; a host whose path differs (a different
// source VL, or a routing that looks at the input port) has its own.
type Paths struct {
	net      *topologies.Network
	name     string
	hosts    int
	channels int
	portBase []int32 // first channel of each switch's ports
	row      []int32 // switch → row of off, −1 without hosts
	off      []uint32
	links    []int32
	except   map[[2]int32][]int32
	layers   int // virtual layers the routing needs (its VLs())
	vlsUsed  int // distinct VLs the paths use
	index    int64
	load     []int64
}

// maxHops bounds a path, so a routing that loops is reported, not followed
// forever.
func maxHops(net *topologies.Network) int { return 2*len(net.Switches) + 16 }

// Extract walks r from every host to every other host of net, choosing
// among candidates by policy, and returns the paths. workers bounds the
// goroutines (≤ 0: one). It fails, naming the pair, when r offers no
// candidate, leaves the network, or loops.
func Extract(r routing.Routing, net *topologies.Network, policy string, workers int) (*Paths, error) {
	if !slices.Contains(Policies(), policy) {
		return nil, keyerr.New("paths", "unknown policy %q (expected first or dest)", policy)
	}
	if err := net.Validate(); err != nil {
		return nil, keyerr.New("paths", "%w", err)
	}
	p := &Paths{net: net, name: r.Name(), hosts: len(net.Hosts), layers: routing.Layers(r)}
	if p.hosts < 2 {
		return nil, keyerr.New("paths", "network %s has %d hosts, need at least 2", net.Kind, p.hosts)
	}
	p.portBase = make([]int32, len(net.Switches))
	ch := p.hosts
	for s, sw := range net.Switches {
		p.portBase[s] = int32(ch)
		ch += len(sw.Ports)
	}
	p.channels = ch
	p.row = make([]int32, len(net.Switches))
	for i := range p.row {
		p.row[i] = -1
	}
	var reps []int // first host of each row's switch
	for h, a := range net.Hosts {
		if p.row[a.Switch] < 0 {
			p.row[a.Switch] = int32(len(reps))
			reps = append(reps, h)
		}
	}
	onSwitch := make([][]int, len(reps))
	for h, a := range net.Hosts {
		rw := p.row[a.Switch]
		onSwitch[rw] = append(onSwitch[rw], h)
	}

	type rowOut struct {
		links  []int32
		lens   []uint32
		except map[[2]int32][]int32
		vls    uint64
	}
	outs := make([]rowOut, len(reps))
	if workers < 1 {
		workers = 1
	}
	var g errgroup.Group
	g.SetLimit(workers)
	var mu sync.Mutex
	loads := make([]int64, p.channels)
	for rw := range reps {
		g.Go(func() error {
			w := walker{r: r, net: net, p: p, policy: policy}
			o := &outs[rw]
			o.lens = make([]uint32, p.hosts)
			load := make([]int64, p.channels)
			for dst := range p.hosts {
				start := len(o.links)
				var err error
				o.links, err = w.walk(o.links, reps[rw], dst)
				if err != nil {
					return err
				}
				path := o.links[start:]
				o.lens[dst] = uint32(len(path))
				users := int64(0)
				ref, err := w.first(reps[rw], dst)
				if err != nil {
					return err
				}
				for _, h := range onSwitch[rw] {
					if h == dst {
						continue
					}
					same := h == reps[rw]
					if !same {
						got, err := w.first(h, dst)
						if err != nil {
							return err
						}
						same = got == ref
					}
					if err != nil {
						return err
					}
					if same {
						users++
						continue
					}
					own, err := w.walk(nil, h, dst)
					if err != nil {
						return err
					}
					if o.except == nil {
						o.except = map[[2]int32][]int32{}
					}
					o.except[[2]int32{int32(h), int32(dst)}] = own
					for _, c := range own {
						load[c]++
					}
				}
				for _, c := range path {
					load[c] += users
				}
			}
			o.vls = w.vls
			mu.Lock()
			for c, n := range load {
				loads[c] += n
			}
			mu.Unlock()
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, fmt.Errorf("paths of routing %s: %w", r.Name(), err)
	}
	p.off = make([]uint32, len(reps)*p.hosts+1)
	var vls uint64
	for rw, o := range outs {
		for dst, n := range o.lens {
			k := rw*p.hosts + dst
			p.off[k+1] = p.off[k] + n
		}
		p.links = append(p.links, o.links...)
		for k, v := range o.except {
			if p.except == nil {
				p.except = map[[2]int32][]int32{}
			}
			p.except[k] = v
		}
		vls |= o.vls
	}
	p.vlsUsed = bits.OnesCount64(vls)
	for h := range p.hosts {
		loads[h] = int64(p.hosts - 1)
	}
	p.load = loads
	for c := p.hosts; c < p.channels; c++ {
		sw, port := p.switchPort(c)
		if net.Switches[sw].Ports[port].Kind == topologies.SwitchPort {
			p.index = max(p.index, loads[c])
		}
	}
	return p, nil
}

// walker follows a routing from host to host.
type walker struct {
	r      routing.Routing
	net    *topologies.Network
	p      *Paths
	policy string
	cands  []routing.Candidate
	vls    uint64 // bit set of the VLs seen
}

// choose returns the candidate the policy takes for destination dst.
func (w *walker) choose(cands []routing.Candidate, dst int) routing.Candidate {
	best := cands[0].Priority
	n := 0
	for _, c := range cands {
		if c.Priority > best {
			best, n = c.Priority, 0
		}
		if c.Priority == best {
			n++
		}
	}
	k := 0
	if w.policy == PolicyDest {
		k = dst % n
	}
	for _, c := range cands {
		if c.Priority == best {
			if k == 0 {
				return c
			}
			k--
		}
	}
	return cands[0]
}

// step returns the port the packet takes at sw and its VL there.
func (w *walker) step(sw, inPort, vl, sl int, dlid int32, src, dst int) (int, int, error) {
	w.cands = w.r.Route(sw, inPort, vl, sl, dlid, w.cands[:0])
	if len(w.cands) == 0 {
		return 0, 0, fmt.Errorf("host %s → host %s: no candidate port at switch %s", w.net.HostLabel(src), w.net.HostLabel(dst), w.net.SwitchLabel(sw))
	}
	c := w.choose(w.cands, dst)
	if c.Port < 0 || int(c.Port) >= len(w.net.Switches[sw].Ports) {
		return 0, 0, fmt.Errorf("host %s → host %s: switch %s has no port %d", w.net.HostLabel(src), w.net.HostLabel(dst), w.net.SwitchLabel(sw), c.Port+1)
	}
	out := w.r.OutVL(sw, inPort, vl, sl, int(c.Port))
	if out < 0 || out >= 64 {
		return 0, 0, fmt.Errorf("host %s → host %s: VL %d at switch %s out of range", w.net.HostLabel(src), w.net.HostLabel(dst), out, w.net.SwitchLabel(sw))
	}
	return int(c.Port), out, nil
}

// walk appends to buf the channels of the path from src to dst after the
// injection link and up to and including the ejection link.
func (w *walker) walk(buf []int32, src, dst int) ([]int32, error) {
	a := w.net.Hosts[src]
	sw, inPort := int(a.Switch), int(a.Port)
	dlid, sl, vl := w.r.Source(src, dst)
	w.vls |= 1 << uint(vl&63)
	for range maxHops(w.net) {
		port, out, err := w.step(sw, inPort, vl, sl, dlid, src, dst)
		if err != nil {
			return buf, err
		}
		buf = append(buf, w.p.portBase[sw]+int32(port))
		pt := w.net.Switches[sw].Ports[port]
		switch pt.Kind {
		case topologies.HostPort:
			if int(pt.Peer) != dst {
				return buf, fmt.Errorf("host %s → host %s: delivered to host %s at switch %s", w.net.HostLabel(src), w.net.HostLabel(dst), w.net.HostLabel(int(pt.Peer)), w.net.SwitchLabel(sw))
			}
			return buf, nil
		case topologies.SwitchPort:
			w.vls |= 1 << uint(out)
			sw, inPort, vl = int(pt.Peer), int(pt.PeerPort), out
		default:
			return buf, fmt.Errorf("host %s → host %s: port %d of switch %s is unused", w.net.HostLabel(src), w.net.HostLabel(dst), port+1, w.net.SwitchLabel(sw))
		}
	}
	return buf, fmt.Errorf("host %s → host %s: no arrival within %d hops (a routing loop?)", w.net.HostLabel(src), w.net.HostLabel(dst), maxHops(w.net))
}

// firstHop is what decides a path from its source switch on: the DLID
// and SL, and the port and VL taken at the first switch. Hosts of one
// switch with equal first hops have the same path.
type firstHop struct {
	dlid          int32
	sl, port, out int
}

// first returns the first hop of the path from h to dst.
func (w *walker) first(h, dst int) (firstHop, error) {
	dlid, sl, vl := w.r.Source(h, dst)
	w.vls |= 1 << uint(vl&63)
	a := w.net.Hosts[h]
	port, out, err := w.step(int(a.Switch), int(a.Port), vl, sl, dlid, h, dst)
	return firstHop{dlid, sl, port, out}, err
}

// switchPort returns the switch and port of channel c ≥ Hosts.
func (p *Paths) switchPort(c int) (sw, port int) {
	sw, _ = slices.BinarySearch(p.portBase, int32(c)+1)
	sw--
	return sw, c - int(p.portBase[sw])
}

// Inner returns the channels of the path from src to dst after the
// injection link (channel src): the switch-to-switch links and the
// ejection link. The slice is shared; do not modify it.
func (p *Paths) Inner(src, dst int) []int32 {
	if p.except != nil {
		if e, ok := p.except[[2]int32{int32(src), int32(dst)}]; ok {
			return e
		}
	}
	k := int(p.row[p.net.Hosts[src].Switch])*p.hosts + dst
	return p.links[p.off[k]:p.off[k+1]]
}

// Path appends to buf every channel of the path from src to dst,
// injection link first.
func (p *Paths) Path(buf []int32, src, dst int) []int32 {
	return append(append(buf, int32(src)), p.Inner(src, dst)...)
}

// Hosts returns the number of hosts.
func (p *Paths) Hosts() int { return p.hosts }

// Channels returns the number of channel indices.
func (p *Paths) Channels() int { return p.channels }

// Routing returns the name of the routing the paths come from.
func (p *Paths) Routing() string { return p.name }

// Layers returns the number of virtual layers the routing needs (its
// VLs(): the layers of DFSSSP and LASH, 1 for a single-layer table), not
// the VLs its paths spread over; VLsUsed gives those.
func (p *Paths) Layers() int { return p.layers }

// VLsUsed returns the number of distinct VLs the paths use: more than
// Layers when an engine's tables spread paths over copies of their
// layers.
func (p *Paths) VLsUsed() int { return p.vlsUsed }

// ForwardingIndex returns the edge-forwarding index π of seed 000: the
// largest number of the P(P−1) routes crossing one switch-to-switch
// channel (0 when all hosts share one switch). Host links carry P−1 routes
// each and are not counted.
func (p *Paths) ForwardingIndex() int64 { return p.index }

// Load returns the number of routes crossing channel c.
func (p *Paths) Load(c int) int64 { return p.load[c] }
