package routing

import (
	"fmt"
	"strings"

	"netsim/keyerr"
	"netsim/topologies"
)

// VLs of the adaptive Dragonfly routings that are not the local-hop VLs
// 2·phase and 2·phase + 1; see dragonflyAdaptive.
const (
	dfInjectVL  = 4 // from a host to another group
	dfIntraVL   = 1 // from a host to its own group
	dfGlobal0VL = 5 // on the global hop out of phase 0
	dfGlobal1VL = 3 // on the global hop out of phase 1
	dfVLs       = 6
)

// dragonflyAdaptive is one of seed 004's adaptive Dragonfly routings named
// by the letters G, S, I, D (§3.5): G allows an extra global hop (through
// an intermediate group), S an extra local hop in the source group, I one
// in the intermediate group and D one in the destination group. Minimal
// hops have High priority, all others Low, so the switch leaves the
// minimal path only when its minimal ports are busy.
//
// # Paths
//
// A packet's phase is the number of global hops it has taken: phase 0 in
// the source group, phase 1 in the intermediate group (or, when it went
// straight there, the destination group), phase 2 in the destination group
// after an intermediate one. Let A be the group of the current switch u,
// Dg the destination group and t the destination switch; a gateway is a
// switch of A with a global link to Dg. In each phase a packet takes at
// most B local hops, B = 2 with the phase's letter (S for phase 0, I for
// phase 1, D for a packet in Dg; S or D for traffic within one group) and
// B = 1 without; h counts those taken so far. The candidates at u are:
//
//   - u = t: the destination host's port.
//   - A = Dg: the local ports to t (High); if h = 0 and B = 2 also those to
//     every other switch of the group (Low).
//   - Phase 0, A ≠ Dg: u's global ports to Dg (High); with G, u's global
//     ports to other groups (Low). If h < B, local ports to a gateway v
//     (High, or Low when u is a gateway itself), and to a non-gateway v
//     (Low) if either u is no gateway and h + 1 < B, or G holds and v has
//     a global link to a group other than Dg.
//   - Phase 1, A ≠ Dg: u's global ports to Dg (High). If h < B, local
//     ports to a gateway (High, Low when u is one), and if u is no gateway
//     and h + 1 < B to a non-gateway (Low).
//
// So an extra local hop is never offered from a switch that can leave the
// group as planned, and every offered hop can be completed: a path takes
// at most 1 + S local hops, a global hop, with G at most 1 + I local hops
// and a second global hop, then at most 1 + D local hops, in all at most 8
// (GSID). Traffic within a group never leaves it.
//
// # VLs
//
// The routing needs 6 VLs. In phase φ a packet's first local hop uses VL
// 2φ and its second 2φ + 1: VLs 0–1 in the source group, 2–3 in the
// intermediate group (or the destination group reached directly), 4–5 in
// the destination group after an intermediate one. The global hop out of
// phase 0 uses VL 5, the one out of phase 1 VL 3. A host sends with VL 4
// to another group and VL 1 within its group. The link to a host keeps the
// VL.
//
// Route depends on (switch, input VL, DLID) only, so the VL a packet
// arrives with must tell its state, and it does, given whether u is in Dg:
//
//	A ≠ Dg:  VL 4 → phase 0, h = 0;  0 → phase 0, h = 1;  1 → phase 0, h = 2;
//	         VL 5 → phase 1, h = 0;  2 → phase 1, h = 1;  3 → phase 1, h = 2.
//	A = Dg:  an even VL → h = 1: only the hop to t remains;
//	         an odd VL  → h = 0 (VL 1: within the group; 5: phase 1; 3: phase 2),
//	         unless it arrived on a second local hop (VLs 1, 3, 5), which
//	         always ends at t, where h does not matter.
//
// The first table is unambiguous because local links carry VLs 4 and 5
// only in phase 2, which is in Dg, and the global link out of phase 1
// leads only to Dg. OutVL sees (input port, input VL) and tells the phase
// and h from them: from a
// host, phase 0, h = 0; from a local link with VL v, phase ⌊v/2⌋, h = v mod
// 2 + 1; from a global link, phase 2 after VL 3 and phase 1 otherwise,
// h = 0. It gives VL 2φ + h to a local hop and VL 5 (phase 0) or 3 (phase
// 1) to a global one.
//
// # Deadlock freedom
//
// Rank the (link, VL) channels: local VL 0 < local VL 1 < global VL 5 <
// local VL 2 < local VL 3 < global VL 3 < local VL 4 < local VL 5. A
// packet holding a channel waits only for a candidate of the state it
// arrived in, i.e. for the next channel of one of its paths, so the
// dependencies are exactly: local 0 → local 1 or global 5; local 1 →
// global 5; global 5 → local 2 or global 3; local 2 → local 3 or global 3;
// local 3 → global 3; global 3 → local 4; local 4 → local 5; and any
// channel → the destination host. Each goes up the ranking (a group's
// first local hop before its second, local hops of a phase before its
// global hop, a global hop before the hops of the next phase), and host
// channels only start (injection) or end (ejection) paths. So the channel
// dependency graph over (link, VL), built from every candidate, is
// acyclic, and the routing is deadlock-free (Dally and Seitz; for an
// adaptive routing an acyclic graph of all candidates is sufficient).
// Every path ends at the destination within 8 hops, so there is no
// livelock either.
type dragonflyAdaptive struct {
	df         *dragonfly
	name       string
	g, s, i, d bool
}

// dragonflyLetters parses the name of an adaptive Dragonfly routing: the
// letters G, S, I, D in this order, each at most once, I only with G (it
// needs an intermediate group). ok is false for any other name.
func dragonflyLetters(name string) (g, s, i, d, ok bool) {
	rest := name
	take := func(c string) bool {
		if strings.HasPrefix(rest, c) {
			rest = rest[1:]
			return true
		}
		return false
	}
	g, s, i, d = take("G"), take("S"), take("I"), take("D")
	return g, s, i, d, name != "" && rest == "" && (g || !i)
}

// dragonflyAdaptiveNames lists, for error messages, the adaptive Dragonfly
// routings.
const dragonflyAdaptiveNames = "S, D, SD, G, GS, GI, GD, GSI, GID, GSD, GSID"

// newDragonflyAdaptive builds the routing name (see dragonflyLetters) for
// net, a Dragonfly.
func newDragonflyAdaptive(net *topologies.Network, vls int, name string) (*dragonflyAdaptive, error) {
	g, s, i, d, ok := dragonflyLetters(name)
	if !ok {
		return nil, keyerr.New("algorithm", "%q is not an adaptive Dragonfly routing (known: %s)", name, dragonflyAdaptiveNames)
	}
	df, err := newDragonfly(net, vls)
	if err != nil {
		return nil, fmt.Errorf("routing %s: %w", name, err)
	}
	return &dragonflyAdaptive{df: df, name: name, g: g, s: s, i: i, d: d}, nil
}

// Name implements Routing.
func (r *dragonflyAdaptive) Name() string { return r.name }

// VLs implements Routing: 6 VLs, whatever the letters.
func (r *dragonflyAdaptive) VLs() int { return dfVLs }

// SLs implements Routing: one SL.
func (r *dragonflyAdaptive) SLs() int { return 1 }

// Source implements Routing: DLID = dst, VL 1 within a group and VL 4
// between groups.
func (r *dragonflyAdaptive) Source(src, dst int) (dlid int32, sl, vl int) {
	h := &r.df.hosts
	if uint(dst) >= uint(len(h.sw)) || uint(src) >= uint(len(h.sw)) {
		return -1, 0, 0
	}
	if r.df.group[h.sw[src]] == r.df.group[h.sw[dst]] {
		return int32(dst), 0, dfIntraVL
	}
	return int32(dst), 0, dfInjectVL
}

// Route implements Routing; see dragonflyAdaptive for the candidates. It
// costs O(k + g) for groups of k switches with g global links each and
// does not allocate when out has room for them.
func (r *dragonflyAdaptive) Route(sw, inPort, inVL, sl int, dlid int32, out []Candidate) []Candidate {
	df := r.df
	if !df.hosts.valid(dlid) || uint(sw) >= uint(len(df.group)) {
		return out
	}
	t := int(df.hosts.sw[dlid])
	if sw == t {
		return append(out, Candidate{Port: df.hosts.port[dlid], Priority: High})
	}
	a, dg := df.group[sw], df.group[t]
	if a == dg {
		out = df.appendLocal(out, sw, t, High)
		// An odd VL: no local hop yet in this group.
		if inVL&1 == 1 && (r.d || inVL == dfIntraVL && r.s) {
			out = r.appendGroup(out, sw, t)
		}
		return out
	}
	var phase, h int
	switch inVL {
	case dfInjectVL:
		phase, h = 0, 0
	case 0, 1:
		phase, h = 0, inVL+1
	case dfGlobal0VL:
		phase, h = 1, 0
	case 2, 3:
		phase, h = 1, inVL-1
	default: // no packet arrives outside its destination group on another VL
		return out
	}
	extra := r.s
	if phase == 1 {
		extra = r.i
	}
	budget := 1
	if extra {
		budget = 2
	}
	valiant := r.g && phase == 0
	gateway := df.isGateway(sw, dg)
	out = df.appendGlobal(out, sw, dg, High)
	if valiant {
		out = df.appendGlobalAvoiding(out, sw, dg, Low)
	}
	if h >= budget {
		return out
	}
	base := a * df.k
	for i := range df.k {
		v := int(df.member[base+i])
		switch {
		case v == sw:
		case df.isGateway(v, dg):
			if gateway {
				out = df.appendLocal(out, sw, v, Low)
			} else {
				out = df.appendLocal(out, sw, v, High)
			}
		case !gateway && h+1 < budget, valiant && df.hasExitAvoiding(v, dg):
			out = df.appendLocal(out, sw, v, Low)
		}
	}
	return out
}

// appendGroup appends, with Low priority, the local ports of sw to every
// switch of its group but t.
func (r *dragonflyAdaptive) appendGroup(out []Candidate, sw, t int) []Candidate {
	df := r.df
	base := df.group[sw] * df.k
	for i := range df.k {
		if v := int(df.member[base+i]); v != sw && v != t {
			out = df.appendLocal(out, sw, v, Low)
		}
	}
	return out
}

// OutVL implements Routing: VL 2·phase + h on a local hop, 5 or 3 on a
// global hop out of phase 0 or 1, the input VL towards a host; see
// dragonflyAdaptive.
func (r *dragonflyAdaptive) OutVL(sw, inPort, inVL, sl, outPort int) int {
	oc := r.df.portClass(sw, outPort)
	if oc != dfLocal && oc != dfGlobal {
		return inVL
	}
	var phase, h int
	switch r.df.portClass(sw, inPort) {
	case dfLocal:
		phase, h = min(inVL, dfVLs-1)/2, 1+(inVL&1)
	case dfGlobal:
		phase = 1
		if inVL == dfGlobal1VL {
			phase = 2
		}
	}
	if oc == dfGlobal {
		if phase == 0 {
			return dfGlobal0VL
		}
		return dfGlobal1VL
	}
	return 2*phase + min(h, 1)
}
