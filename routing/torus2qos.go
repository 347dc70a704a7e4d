package routing

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"netsim/internal/fileio"
	"netsim/keyerr"
	"netsim/topologies"
)

// torusDims is the number of dimensions torus-2QoS routes (x, y, z).
const torusDims = 3

// caDim is the dimension torus-2QoS gives a port that leads to no torus
// neighbour: a host's, or the switch itself (InfiniBand port 0).
const caDim = torusDims

// TorusConf is a torus-2QoS.conf as OpenSM's torus-2QoS engine reads it
// (torus-2QoS.conf(5)): the torus's radix per dimension, which
// dimensions wrap, seed links that fix the orientation, and the
// datelines.
type TorusConf struct {
	// Radix is the number of switches along x, y and z (1: no such
	// dimension).
	Radix [torusDims]int
	// Torus says whether a dimension wraps; a radix of 2 never does (two
	// switches joined by parallel links are a 2-switch mesh).
	Torus [torusDims]bool
	// Seeds are the seeds in the file's order (next_seed starts another)
	// whose switches are all in the network: the first is used.
	Seeds []TorusSeed
	// Dateline is x_dateline, y_dateline, z_dateline: the seed switch has
	// coordinate −Dateline mod Radix.
	Dateline [torusDims]int
}

// TorusSeed is one seed of a torus-2QoS.conf: Link[2d] (xp_link, yp_link,
// zp_link) joins the seed switch to its neighbour in the + direction of
// dimension d, Link[2d+1] (xm_link, ...) to the one in the − direction;
// switch indices, −1 when not given.
type TorusSeed struct {
	Origin int
	Link   [2 * torusDims]int
	line   int
	// missing says which switch of the seed is not in the network.
	missing string
}

// torusLinkKeys are the seed keywords, by 2·dimension + (0 for +, 1 for −).
var torusLinkKeys = [2 * torusDims]string{"xp_link", "xm_link", "yp_link", "ym_link", "zp_link", "zm_link"}

// ReadTorusConf reads a torus-2QoS.conf for net: the torus or mesh line
// (three radices, each optionally suffixed t or m to override the
// keyword for its dimension), the seed links by node GUID or switch
// name, next_seed, the datelines, and portgroup_max_ports and port_order,
// which are checked but do not change netsim's routes (OpenSM's port
// groups and CA port order only decide which of several parallel links a
// destination takes). Comments start with '#'. Errors name the file and
// line: an unknown keyword, a bad number, a switch not in the network, a
// seed whose links do not share their first switch.
func ReadTorusConf(data []byte, file string, net *topologies.Network) (*TorusConf, error) {
	c := &TorusConf{}
	find := newSwitchFinder(net)
	sizeLine, line := 0, 0
	var cur *TorusSeed
	datelineLine := [torusDims]int{}
	errorf := func(format string, args ...any) error { return topologies.FileErrorf(file, line, format, args...) }
	err := topologies.EachLine(bytes.NewReader(data), file, 1<<20, func(l int, text string) error {
		line = l
		f := strings.Fields(text)
		key := strings.ToLower(f[0])
		switch key {
		case "torus", "mesh":
			if sizeLine > 0 {
				return errorf("a second size line (the first is line %d)", sizeLine)
			}
			if len(f) != 1+torusDims {
				return errorf("%s needs %d radices (x y z; 1 for an absent dimension), got %d", key, torusDims, len(f)-1)
			}
			sizeLine = line
			for d := range torusDims {
				w := f[1+d]
				wrap := key == "torus"
				switch w[len(w)-1] {
				case 't', 'T':
					wrap, w = true, w[:len(w)-1]
				case 'm', 'M':
					wrap, w = false, w[:len(w)-1]
				}
				r, err := strconv.Atoi(w)
				if err != nil || r < 1 || r > 1<<16 {
					return errorf("bad radix %q for dimension %c (expected a positive number, optionally suffixed t or m)", f[1+d], "xyz"[d])
				}
				c.Radix[d], c.Torus[d] = r, wrap && r > 2
			}
		case "xp_link", "xm_link", "yp_link", "ym_link", "zp_link", "zm_link":
			if len(f) != 3 {
				return errorf("%s needs two switches (GUIDs or names), got %d words", key, len(f)-1)
			}
			if cur == nil {
				c.Seeds = append(c.Seeds, newTorusSeed(line))
				cur = &c.Seeds[len(c.Seeds)-1]
			}
			var sw [2]int
			for i := range sw {
				s, msg, absent := find.switchOf(f[1+i])
				if msg != "" && !absent {
					return errorf("%s: %s", key, msg)
				}
				if msg != "" && cur.missing == "" {
					cur.missing = fmt.Sprintf("%s:%d: %s: %s", file, line, key, msg)
				}
				sw[i] = s
			}
			if cur.missing != "" {
				return nil // a seed for another fabric: the next one may fit
			}
			if sw[0] == sw[1] {
				return errorf("%s joins switch %s to itself", key, f[1])
			}
			if cur.Origin >= 0 && cur.Origin != sw[0] {
				return errorf("%s starts at %s, but this seed's links start at another switch (all links of a seed share their first switch)", key, f[1])
			}
			k := 0
			for torusLinkKeys[k] != key {
				k++
			}
			if cur.Link[k] >= 0 {
				return errorf("%s given twice in one seed (use next_seed to start another)", key)
			}
			cur.Origin, cur.Link[k] = sw[0], sw[1]
		case "next_seed":
			cur = nil
		case "x_dateline", "y_dateline", "z_dateline":
			if len(f) != 2 {
				return errorf("%s needs one coordinate, got %d words", key, len(f)-1)
			}
			v, err := strconv.Atoi(f[1])
			if err != nil {
				return errorf("bad %s %q (expected an integer)", key, f[1])
			}
			d := int(key[0] - 'x')
			c.Dateline[d], datelineLine[d] = v, line
		case "portgroup_max_ports":
			if len(f) < 2 {
				return errorf("%s needs a number", key)
			}
			if v, err := strconv.Atoi(f[1]); err != nil || v < 1 {
				return errorf("bad %s %q (expected a positive number)", key, f[1])
			}
		case "port_order":
			for _, w := range f[1:] {
				if v, err := strconv.Atoi(w); err != nil || v < 1 || v > 254 {
					return errorf("bad port %q in port_order (expected port numbers 1 to 254)", w)
				}
			}
		default:
			return errorf("unknown keyword %q (expected torus, mesh, xp_link … zm_link, next_seed, x_dateline … z_dateline, portgroup_max_ports or port_order)", f[0])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	line = 0
	if sizeLine == 0 {
		return nil, errorf("no size line (expected \"torus X Y Z\" or \"mesh X Y Z\")")
	}
	if len(c.Seeds) == 0 {
		return nil, errorf("no seed links (expected xp_link and yp_link … from one switch, by GUID or name)")
	}
	for d := range torusDims {
		if r := c.Radix[d]; c.Dateline[d] <= -r || c.Dateline[d] >= r {
			line = datelineLine[d]
			return nil, errorf("%c_dateline %d is outside (−%d, %d) for radix %d", "xyz"[d], c.Dateline[d], r, r, r)
		}
	}
	usable := c.Seeds[:0]
	for _, s := range c.Seeds {
		if s.missing == "" {
			usable = append(usable, s)
		}
	}
	if len(usable) == 0 {
		return nil, fmt.Errorf("no seed of %s names switches of the network (netsim, as OpenSM, uses the first seed whose switches are all present): %s", file, c.Seeds[0].missing)
	}
	c.Seeds = usable
	for _, s := range c.Seeds {
		line = s.line
		for d := range torusDims {
			if c.Radix[d] == 1 {
				if s.Link[2*d] >= 0 || s.Link[2*d+1] >= 0 {
					return nil, errorf("the seed has a link in dimension %c, whose radix is 1", "xyz"[d])
				}
				continue
			}
			if s.Link[2*d] < 0 && s.Link[2*d+1] < 0 {
				return nil, errorf("the seed has no link in dimension %c (expected %s or %s)", "xyz"[d], torusLinkKeys[2*d], torusLinkKeys[2*d+1])
			}
			if c.Radix[d] == 4 && c.Torus[d] && (s.Link[2*d] < 0 || s.Link[2*d+1] < 0) {
				return nil, errorf("dimension %c is a torus of radix 4: the seed needs both %s and %s (a 4-switch ring is itself a 4-cycle, so one link leaves the orientation ambiguous)",
					"xyz"[d], torusLinkKeys[2*d], torusLinkKeys[2*d+1])
			}
		}
	}
	return c, nil
}

func newTorusSeed(line int) TorusSeed {
	s := TorusSeed{Origin: -1, line: line}
	for i := range s.Link {
		s.Link[i] = -1
	}
	return s
}

// torusConfOf returns the torus-2QoS.conf a built torus or ring implies:
// its sizes (at most 3 dimensions) and coordinates (Switch.Coord), no
// seeds needed.
func torusConfOf(net *topologies.Network) (*TorusConf, []int32, error) {
	if len(net.Dims) > torusDims {
		return nil, nil, keyerr.New("algorithm", "routing torus-2QoS routes at most %d dimensions, the %s has %d", torusDims, net.Kind, len(net.Dims))
	}
	c := &TorusConf{Radix: [torusDims]int{1, 1, 1}}
	for d, k := range net.Dims {
		c.Radix[d], c.Torus[d] = k, k > 2
	}
	coords := make([]int32, len(net.Switches)*torusDims)
	for s, sw := range net.Switches {
		copy(coords[s*torusDims:], sw.Coord)
	}
	return c, coords, nil
}

// torusEmbedding places the switches of a fault-free torus at the
// coordinates of a TorusConf.
type torusEmbedding struct {
	net    *topologies.Network
	c      *TorusConf
	nbrs   [][]int32 // each switch's neighbour switches, in increasing order
	at     []int32   // switch at each position, −1 when none
	coords []int32   // coords[s·3+d], −1 when s is not placed
	order  []int32   // positions in breadth-first order from the seed
	parent []int32   // a placed neighbour position of each, in order
	steps  int
}

// maxEmbedSteps bounds the backtracking search of torusEmbedding: far
// more than a torus whose seeds fix its orientation takes.
const maxEmbedSteps = 1 << 22

// torusCoords returns the coordinates (s·3 + d) of net's switches in the
// torus of c, from the first seed whose switches are in the network: the
// seed switch at −Dateline, its seed links' ends one step along their
// directions, and every other switch where its links to the switches
// already placed put it. The fabric must be the whole torus: as many
// switches as positions, every switch link between neighbours.
func torusCoords(net *topologies.Network, c *TorusConf, file string) ([]int32, error) {
	n := 1
	for _, r := range c.Radix {
		n *= r
	}
	if n != len(net.Switches) {
		return nil, topologies.FileErrorf(file, 0, "the torus %d×%d×%d has %d switch positions, the network %d switches (netsim's torus-2QoS routes a complete torus, without failed switches)",
			c.Radix[0], c.Radix[1], c.Radix[2], n, len(net.Switches))
	}
	e := &torusEmbedding{net: net, c: c, nbrs: make([][]int32, len(net.Switches))}
	for s, sw := range net.Switches {
		for _, p := range sw.Ports {
			if p.Kind == topologies.SwitchPort {
				e.nbrs[s] = append(e.nbrs[s], p.Peer)
			}
		}
		slices.Sort(e.nbrs[s])
		e.nbrs[s] = slices.Compact(e.nbrs[s])
	}
	seed := c.Seeds[0]
	var origin [torusDims]int32
	for d := range torusDims {
		origin[d] = int32(((-c.Dateline[d])%c.Radix[d] + c.Radix[d]) % c.Radix[d])
	}
	e.at = make([]int32, n)
	e.coords = make([]int32, len(net.Switches)*torusDims)
	for i := range e.at {
		e.at[i] = -1
	}
	for i := range e.coords {
		e.coords[i] = -1
	}
	e.place(e.pos(origin), int32(seed.Origin))
	for k, s := range seed.Link {
		if s < 0 {
			continue
		}
		d, step := k/2, int32(1-2*(k%2))
		q := origin
		if y := q[d] + step; !c.Torus[d] && (y < 0 || y >= int32(c.Radix[d])) {
			return nil, topologies.FileErrorf(file, seed.line, "%s leads off the mesh: the seed switch is at coordinate %d of dimension %c, a mesh edge (move the dateline or the seed)", torusLinkKeys[k], q[d], "xyz"[d])
		}
		q[d] = e.wrap(d, q[d]+step)
		if !e.linked(int32(seed.Origin), int32(s)) {
			return nil, topologies.FileErrorf(file, seed.line, "%s: the switches are not linked", torusLinkKeys[k])
		}
		if prev := e.at[e.pos(q)]; prev >= 0 && prev != int32(s) || prev < 0 && e.coords[s*torusDims] >= 0 {
			return nil, topologies.FileErrorf(file, seed.line, "%s contradicts the seed's other links", torusLinkKeys[k])
		}
		if prev := e.at[e.pos(q)]; prev < 0 {
			e.place(e.pos(q), int32(s))
		}
	}
	// Positions in breadth-first order from the origin, each with the
	// neighbour it was reached from.
	seen := make([]bool, n)
	e.order = append(e.order, e.pos(origin))
	e.parent = append(e.parent, -1)
	seen[e.pos(origin)] = true
	for head := 0; head < len(e.order); head++ {
		p := e.order[head]
		for _, q := range e.neighbours(p) {
			if !seen[q] {
				seen[q] = true
				e.order = append(e.order, q)
				e.parent = append(e.parent, p)
			}
		}
	}
	if !e.search(1) {
		if e.steps > maxEmbedSteps {
			return nil, topologies.FileErrorf(file, 0, "could not place the switches on the torus within %d steps: the fabric is not a complete %d×%d×%d torus, or its seed does not fix its orientation",
				maxEmbedSteps, c.Radix[0], c.Radix[1], c.Radix[2])
		}
		return nil, topologies.FileErrorf(file, 0, "the network is not a complete %d×%d×%d %s with this seed (line %d): its links do not match a torus's (netsim's torus-2QoS routes a torus without failed switches or links)",
			c.Radix[0], c.Radix[1], c.Radix[2], map[bool]string{true: "torus", false: "mesh"}[c.Torus[0] || c.Torus[1] || c.Torus[2]], seed.line)
	}
	return e.coords, nil
}

// search places the positions order[i:] by backtracking: each one takes
// an unplaced neighbour of its parent's switch linked to exactly the
// switches already placed at its neighbours.
func (e *torusEmbedding) search(i int) bool {
	for ; i < len(e.order) && e.at[e.order[i]] >= 0; i++ {
	}
	if i == len(e.order) {
		return true
	}
	e.steps++
	if e.steps > maxEmbedSteps {
		return false
	}
	p := e.order[i]
	from := e.at[e.parent[i]]
	nb := e.neighbours(p)
	for _, cand := range e.nbrs[from] {
		if e.coords[int(cand)*torusDims] >= 0 || !e.fits(cand, p, nb) {
			continue
		}
		e.place(p, cand)
		if e.search(i + 1) {
			return true
		}
		e.at[p] = -1
		e.coords[int(cand)*torusDims] = -1
	}
	return false
}

// fits reports whether switch s may take position p: linked to the
// switch at each placed neighbour position nb of p, and to no other
// placed switch.
func (e *torusEmbedding) fits(s, p int32, nb []int32) bool {
	placed := 0
	for _, q := range nb {
		if t := e.at[q]; t >= 0 {
			if !e.linked(s, t) {
				return false
			}
			placed++
		}
	}
	linked := 0
	for _, t := range e.nbrs[s] {
		if e.coords[int(t)*torusDims] >= 0 {
			linked++
		}
	}
	return linked == placed
}

// linked reports whether switches a and b are neighbours.
func (e *torusEmbedding) linked(a, b int32) bool {
	_, ok := slices.BinarySearch(e.nbrs[a], b)
	return ok
}

func (e *torusEmbedding) place(p, s int32) {
	e.at[p] = s
	x := p
	for d := range torusDims {
		e.coords[int(s)*torusDims+d] = x % int32(e.c.Radix[d])
		x /= int32(e.c.Radix[d])
	}
}

func (e *torusEmbedding) pos(c [torusDims]int32) int32 {
	p := int32(0)
	for d := torusDims - 1; d >= 0; d-- {
		p = p*int32(e.c.Radix[d]) + c[d]
	}
	return p
}

func (e *torusEmbedding) wrap(d int, x int32) int32 {
	r := int32(e.c.Radix[d])
	return (x%r + r) % r
}

// neighbours returns the distinct positions one step from p in some
// dimension (around the wrap in a torus dimension).
func (e *torusEmbedding) neighbours(p int32) []int32 {
	var c [torusDims]int32
	x := p
	for d := range torusDims {
		c[d] = x % int32(e.c.Radix[d])
		x /= int32(e.c.Radix[d])
	}
	var out []int32
	for d := range torusDims {
		r := int32(e.c.Radix[d])
		for _, step := range []int32{1, -1} {
			y := c[d] + step
			if y < 0 || y >= r {
				if !e.c.Torus[d] {
					continue
				}
				y = e.wrap(d, y)
			}
			if y == c[d] {
				continue
			}
			q := c
			q[d] = y
			qp := e.pos(q)
			dup := false
			for _, o := range out {
				dup = dup || o == qp
			}
			if !dup {
				out = append(out, qp)
			}
		}
	}
	return out
}

// newTorus2QoS builds OpenSM's torus-2QoS routing (torus-2QoS(8)) of a
// fault-free torus or mesh of at most 3 dimensions: conf is the
// torus-2QoS.conf file (ReadTorusConf) for a network without coordinates
// (an ibnetdiscover import); a built torus or ring uses its own
// coordinates when conf is "".
//
// Routes are dimension order, x then y then z; a torus dimension is
// corrected the shorter way round, a tie the direct way (without the
// wrap-around link), a mesh dimension directly. Parallel links in one
// direction take turns, destination by destination (OpenSM's port-group
// counters). The path SL has bit d set when the shorter way between the
// source and destination switches' coordinates in dimension d is around
// the wrap (a tie does not count; as OpenSM, also in a mesh dimension).
// The SL2VL tables are torus-2QoS's: on a hop out of a port of dimension
// od, VL bit 0 is the SL's bit od (0 toward a host), bit 1 marks a turn
// to a lower dimension (only routes around failures take one, so never
// here) and bit 2 is the SL's QoS bit 3, each kept only when the links
// have the VLs for it (2, 4, 8); on host links (injection, and a switch's
// port toward a host) VL = the QoS bit, so SL 0–7 travel on VL 0. So a path
// that wraps in dimension d travels its d hops on VL 1, which breaks each
// ring's cycle: deadlock-free on 2 VLs (netsim check proves it per
// network). With 1 VL every path would share VL 0 and the tori's rings
// would close: that is refused, naming vls (OpenSM only warns).
func newTorus2QoS(net *topologies.Network, vls int, conf string) (*Tables, error) {
	var c *TorusConf
	var coords []int32
	var err error
	if conf == "" {
		if net.Kind != "torus" && net.Kind != "ring" {
			return nil, keyerr.New("torus_config", "routing torus-2QoS on a %s needs its torus-2QoS.conf (sizes and seed links), as OpenSM does", net.Kind)
		}
		if c, coords, err = torusConfOf(net); err != nil {
			return nil, err
		}
	} else {
		data, err := fileio.ReadFile(conf, fileio.MaxSmall)
		if err != nil {
			return nil, keyerr.New("torus_config", "%w", err)
		}
		if c, err = ReadTorusConf(data, conf, net); err != nil {
			return nil, err
		}
		if coords, err = torusCoords(net, c, conf); err != nil {
			return nil, err
		}
	}
	wraps := false
	for d := range torusDims {
		wraps = wraps || c.Torus[d]
	}
	if wraps && vls < 2 {
		return nil, keyerr.New("vls", "routing torus-2QoS needs 2 virtual lanes on a torus (its datelines put paths that wrap on VL 1; on 1 VL the rings' channel dependencies close), got %d", vls)
	}
	t := newTables("torus-2QoS", net, vls)
	g := newGraph(net)
	// Ports of each switch by direction: group[s][2d] the + ports of
	// dimension d, group[s][2d+1] the − ports; dim[s][p] each port's
	// dimension (caDim for a host's).
	group := make([][2 * torusDims][]uint16, len(net.Switches))
	dim := make([][]uint8, len(net.Switches))
	coord := func(s int32, d int) int32 { return coords[int(s)*torusDims+d] }
	for s, sw := range net.Switches {
		dim[s] = make([]uint8, len(sw.Ports))
		for p, port := range sw.Ports {
			dim[s][p] = caDim
			if port.Kind != topologies.SwitchPort {
				continue
			}
			u := port.Peer
			// The link must join neighbours: one step in one dimension.
			k, differ := -1, 0
			for d := range torusDims {
				a, b, r := coord(int32(s), d), coord(u, d), int32(c.Radix[d])
				if a == b {
					continue
				}
				differ++
				switch {
				case b == a+1 || c.Torus[d] && b == (a+1)%r:
					k = 2 * d
				case b == a-1 || c.Torus[d] && a == (b+1)%r:
					k = 2*d + 1
				}
			}
			if k < 0 || differ != 1 {
				return nil, keyerr.New("algorithm", "routing torus-2QoS: the link from switch %s port %d to switch %s joins no neighbours of the torus (netsim's torus-2QoS routes a complete torus without extra links)",
					net.SwitchLabel(s), p+1, net.SwitchLabel(int(u)))
			}
			group[s][k] = append(group[s][k], uint16(p))
			dim[s][p] = uint8(k / 2)
		}
	}
	// Dimension-order routes, and each path's SL by its switches.
	turn := make([][2 * torusDims]int, len(net.Switches))
	t.layer = make([]uint8, t.sws*t.hosts)
	sls := 1
	for h, a := range net.Hosts {
		dst := a.Switch
		for s := range int32(g.n) {
			sl := 0
			for d := range torusDims {
				if x, y := coord(s, d), coord(dst, d); x != y && c.Radix[d]-int(abs32(y-x)) < int(abs32(y-x)) {
					sl |= 1 << d
				}
			}
			t.layer[int(s)*t.hosts+h] = uint8(sl)
			sls = max(sls, sl+1)
			if s == dst {
				continue
			}
			d := 0
			for d < torusDims-1 && coord(s, d) == coord(dst, d) {
				d++
			}
			x, y, r := coord(s, d), coord(dst, d), int32(c.Radix[d])
			k := 2 * d // the direct way
			if y < x {
				k++
			}
			if c.Torus[d] && r-abs32(y-x) < abs32(y-x) {
				k ^= 1 // the shorter way is around
			}
			ports := group[s][k]
			if len(ports) == 0 {
				return nil, keyerr.New("algorithm", "routing torus-2QoS: switch %s has no link in direction %c%c", net.SwitchLabel(int(s)), "xyz"[d], "+-"[k%2])
			}
			t.lft[int(s)*t.hosts+h] = ports[turn[s][k]%len(ports)]
			turn[s][k]++
		}
	}
	t.layers = sls
	t.fabricVLs = true
	t.sl2vl = torus2QoSSL2VL(net, dim, vls)
	t.vlsNeeded = t.sl2vl.maxVL(sls) + 1
	return t, nil
}

// torus2QoSSL2VL returns torus-2QoS's SL2VL tables, given each switch
// port's dimension (caDim for a host's) and the VLs of the links.
func torus2QoSSL2VL(net *topologies.Network, dim [][]uint8, vls int) *SL2VL {
	m := newSL2VL(net)
	portDim := func(s, ib int) int {
		if ib == 0 {
			return caDim
		}
		return int(dim[s][ib-1])
	}
	vl := func(id, od, sl int) uint8 {
		v := 0
		switch {
		case od == caDim: // toward a host: the QoS level alone
			if vls >= 2 {
				v = sl >> 3 & 1
			}
		default:
			if vls >= 2 {
				v |= sl >> od & 1
			}
			if id < caDim && id > od && vls >= 4 {
				v |= 2
			}
			if sl&8 != 0 && vls >= 8 {
				v |= 4
			}
		}
		return uint8(v)
	}
	for s := range net.Switches {
		p := m.ports[s] + 1
		for in := range p {
			for out := range p {
				for sl := range slsPerTable {
					m.sw[s][(in*p+out)*slsPerTable+sl] = vl(portDim(s, in), portDim(s, out), sl)
				}
			}
		}
	}
	for h := range net.Hosts {
		for sl := range slsPerTable {
			m.ca[h*slsPerTable+sl] = vl(caDim, caDim, sl)
		}
	}
	return m
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}
