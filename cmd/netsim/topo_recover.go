package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"netsim/internal/fileio"
	"netsim/topologies/structure"
)

// recoverFlags are the options of netsim topo recover.
type recoverFlags struct {
	as    string
	json  bool
	file  string
	shape structure.DragonflyShape
}

// define defines the flags of netsim topo recover on fs, bound to f.
func (f *recoverFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&f.as, "as", "", "map as `FAMILY` (flatfly or dragonfly) instead of detecting the family: "+
		"a FlatFly when the FlatFly mapping is consistent and has at least half the switches of the "+
		"complete FlatFly and, on average, half of their neighbours in it; else a Dragonfly when groups "+
		"of more than one switch are found")
	fs.BoolVar(&f.json, "json", false, "print one JSON object instead of text")
	fs.IntVar(&f.shape.GroupSize, "group-size", 0, "no Dragonfly group has more than `K` switches "+
		"(implies --as dragonfly)")
	fs.IntVar(&f.shape.GlobalPerSwitch, "global-per-switch", 0, "no Dragonfly switch has more than `G` "+
		"global links (implies --as dragonfly)")
	fs.IntVar(&f.shape.Groups, "groups", 0, "there are at most `N` Dragonfly groups: N = K·G+1, or K·G "+
		"without one global link per group (implies --as dragonfly)")
}

// check checks the file and flags of netsim topo recover (fs holds them
// parsed); a Dragonfly shape flag sets --as dragonfly.
func (f *recoverFlags) check(fs *flag.FlagSet, files []string) error {
	if len(files) != 1 {
		return fmt.Errorf("need one link-list file, got %d", len(files))
	}
	f.file = files[0]
	switch f.as {
	case "", "flatfly", "dragonfly":
	default:
		return fmt.Errorf("--as: unknown family %q (expected flatfly or dragonfly)", f.as)
	}
	for _, v := range []struct {
		flag string
		n    int
	}{{"--group-size", f.shape.GroupSize}, {"--global-per-switch", f.shape.GlobalPerSwitch}, {"--groups", f.shape.Groups}} {
		switch {
		case v.n < 0 || v.n == 0 && given(fs, v.flag[2:]):
			return fmt.Errorf("%s: must be positive (got %d)", v.flag, v.n)
		case v.n > 0 && f.as == "flatfly":
			return fmt.Errorf("%s: only for a Dragonfly, not with --as flatfly", v.flag)
		case v.n > 0:
			f.as = "dragonfly"
		}
	}
	return nil
}

// topoRecoverCmd returns netsim topo recover.
func topoRecoverCmd() *Command {
	var f recoverFlags
	return &Command{
		Name: "recover",
		UsageLine: "netsim topo recover FILE [--as flatfly|dragonfly] [--json]\n" +
			"netsim topo recover FILE --as dragonfly [--group-size K] [--global-per-switch G] [--groups N] [--json]",
		Short: "recover FlatFly coordinates or Dragonfly groups from a link list",
		Long: `Recovers the structure of a network from its link list alone, with the
mapping algorithms of seed 004 §2: the dimensions, sizes K_n, widths L_n
and switch coordinates of a FlatFly (hypercubes included), or the groups
of a Dragonfly. Missing switches and links are tolerated; the structure
covers the largest connected part of the network. FILE is a link list
(docs/cli.md, "Recovering a network's structure"): lines "SWITCH PORT
SWITCH PORT" or "SWITCH SWITCH", and optional "hosts SWITCH COUNT"; '#'
starts a comment.

--group-size K, --global-per-switch G and --groups N tell what is known
of the Dragonfly (and imply --as dragonfly); unset ones are inferred
from the link list. Groups split by missing switches or links are
rejoined within these invariants (docs/cli.md).

Exit status: 0 mapped; 1 the network could not be mapped consistently
(the mapping found is still printed with --as); 2 bad command line or
link list.
`,
		Flags: f.define,
		Run: func(_ context.Context, cmd *Command, ev env, files []string) int {
			if err := f.check(cmd.flagSet(), files); err != nil {
				return cmd.usageError(ev, err)
			}
			return topoRecover(f, ev.stdout, ev.stderr)
		},
	}
}

// topoRecover implements netsim topo recover with the flags and file f.
func topoRecover(f recoverFlags, stdout, stderr io.Writer) int {
	g, err := readLinkList(f.file)
	if err != nil {
		fmt.Fprintf(stderr, "netsim topo recover: %v\n", err)
		return exitUsage
	}
	r, err := recoverStructure(g, f.as, f.shape)
	if err != nil {
		fmt.Fprintf(stderr, "netsim topo recover: %s: %v\n", f.file, err)
		if r == nil {
			return exitFailed
		}
	}
	r.File = f.file
	if f.json {
		enc := json.NewEncoder(stdout)
		if werr := enc.Encode(r); werr != nil {
			fmt.Fprintf(stderr, "netsim topo recover: %v\n", werr)
			return exitFailed
		}
	} else if werr := r.writeText(stdout); werr != nil {
		fmt.Fprintf(stderr, "netsim topo recover: %v\n", werr)
		return exitFailed
	}
	if err != nil {
		return exitFailed
	}
	return exitOK
}

// readLinkList reads the link list in file.
func readLinkList(file string) (*structure.Graph, error) {
	fh, err := fileio.Open(file, fileio.MaxLarge)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return structure.ReadLinkList(fh, file)
}

// recovered is the structure netsim topo recover prints; it is also its
// --json output.
type recovered struct {
	File     string `json:"file"`
	Family   string `json:"family"`   // "flatfly" or "dragonfly"
	Detected bool   `json:"detected"` // the family was detected, not given with --as
	Switches int    `json:"switches"`
	Mapped   int    `json:"mapped"` // switches in the largest connected part
	Links    int    `json:"links"`
	// FlatFly.
	Dims   []int   `json:"dims,omitempty"`
	Widths []int   `json:"widths,omitempty"`
	Fill   float64 `json:"fill,omitempty"` // mapped / Π K_n
	// NeighbourFill is the mean over mapped switches of their neighbours
	// divided by Σ (K_n − 1), the neighbours in the complete FlatFly.
	NeighbourFill float64 `json:"neighbour_fill,omitempty"`
	Stray         int     `json:"stray,omitempty"`
	// Dragonfly.
	Groups          int `json:"groups,omitempty"`
	GroupSize       int `json:"group_size,omitempty"`
	GlobalPerSwitch int `json:"global_per_switch,omitempty"`
	LocalLinks      int `json:"local_links,omitempty"`
	GlobalLinks     int `json:"global_links,omitempty"`
	// Rejoined counts the switches added to groups that faults had split.
	Rejoined int        `json:"rejoined,omitempty"`
	Model    *modelJSON `json:"model,omitempty"`

	SwitchList []switchJSON `json:"switch_list"`
	LinkList   []linkJSON   `json:"link_list"`
}

// modelJSON is what the Dragonfly mapping assumed: the shape, given or
// inferred, and the estimated fault rates.
type modelJSON struct {
	GroupSize       int      `json:"group_size"`
	GlobalPerSwitch int      `json:"global_per_switch"`
	Groups          int      `json:"groups"`
	Given           []string `json:"given,omitempty"` // the keys above given on the command line
	LinkSurvival    float64  `json:"link_survival"`   // fraction of local links present
	SwitchSurvival  float64  `json:"switch_survival"` // fraction of switches present
}

// switchJSON is one switch of the recovered structure.
type switchJSON struct {
	Name   string `json:"name"`
	Hosts  int    `json:"hosts"`
	Mapped bool   `json:"mapped"`
	Coord  []int  `json:"coord,omitempty"` // FlatFly
	Group  *int   `json:"group,omitempty"` // Dragonfly
}

// linkJSON is one link of the recovered structure.
type linkJSON struct {
	A     string `json:"a"`
	PortA int    `json:"port_a"` // -1 when not given
	B     string `json:"b"`
	PortB int    `json:"port_b"`
	Dim   *int   `json:"dim,omitempty"`   // FlatFly; absent outside the mapped part
	Local *bool  `json:"local,omitempty"` // Dragonfly; absent outside the mapped part
}

// recoverStructure maps g as the family as, or as the family that
// structure.Detect finds when as is "", a Dragonfly knowing shape. With
// an error and a non-nil result, the mapping is inconsistent but
// printable.
func recoverStructure(g *structure.Graph, as string, shape structure.DragonflyShape) (*recovered, error) {
	switch as {
	case structure.FamilyFlatFly:
		f, err := structure.MapFlatFly(g)
		if err != nil {
			return nil, err
		}
		return fromFlatFly(g, f), f.Check(g)
	case structure.FamilyDragonfly:
		d, err := structure.MapDragonflyShape(g, shape)
		if err != nil {
			return nil, err
		}
		r := fromDragonfly(g, d, shape)
		if err := d.Check(g); err != nil {
			return r, fmt.Errorf("not a Dragonfly: %v", err)
		}
		return r, nil
	}
	det, err := structure.Detect(g, shape)
	if err != nil {
		return nil, err
	}
	var r *recovered
	if det.FlatFly != nil {
		r = fromFlatFly(g, det.FlatFly)
	} else {
		r = fromDragonfly(g, det.Dragonfly, shape)
	}
	r.Detected = true
	return r, nil
}

// base returns the parts of the result common to both families.
func base(g *structure.Graph, family string) *recovered {
	r := &recovered{Family: family, Switches: g.Switches(), Links: len(g.Links),
		SwitchList: make([]switchJSON, g.Switches()), LinkList: make([]linkJSON, len(g.Links))}
	for s, name := range g.Names {
		r.SwitchList[s].Name = name
		if g.Hosts != nil {
			r.SwitchList[s].Hosts = g.Hosts[s]
		}
	}
	for i, l := range g.Links {
		r.LinkList[i] = linkJSON{A: g.Names[l.A], PortA: l.PortA, B: g.Names[l.B], PortB: l.PortB}
	}
	return r
}

// fromFlatFly converts a FlatFly mapping.
func fromFlatFly(g *structure.Graph, f *structure.FlatFly) *recovered {
	r := base(g, structure.FamilyFlatFly)
	r.Mapped, r.Dims, r.Widths, r.Stray = f.Mapped, f.Dims, f.Widths, f.Stray
	r.Fill, r.NeighbourFill = f.Fill(), f.NeighbourFill(g)
	for s, c := range f.Coord {
		r.SwitchList[s].Mapped = c != nil
		r.SwitchList[s].Coord = c
	}
	for i, d := range f.LinkDim {
		if d >= 0 {
			r.LinkList[i].Dim = &d
		}
	}
	return r
}

// fromDragonfly converts a Dragonfly mapping made knowing shape.
func fromDragonfly(g *structure.Graph, d *structure.Dragonfly, shape structure.DragonflyShape) *recovered {
	r := base(g, structure.FamilyDragonfly)
	r.Mapped, r.Groups, r.GroupSize, r.GlobalPerSwitch = d.Mapped, d.Groups, d.GroupSize, d.GlobalPerSwitch
	r.Rejoined = d.Rejoined
	m := d.Model
	r.Model = &modelJSON{GroupSize: m.GroupSize, GlobalPerSwitch: m.GlobalPerSwitch, Groups: m.Groups,
		LinkSurvival: m.LinkSurvival, SwitchSurvival: m.SwitchSurvival}
	for _, v := range []struct {
		key string
		n   int
	}{{"group_size", shape.GroupSize}, {"global_per_switch", shape.GlobalPerSwitch}, {"groups", shape.Groups}} {
		if v.n > 0 {
			r.Model.Given = append(r.Model.Given, v.key)
		}
	}
	for s, grp := range d.Group {
		r.SwitchList[s].Mapped = grp >= 0
		if grp >= 0 {
			r.SwitchList[s].Group = &grp
		}
	}
	for i, l := range g.Links {
		if d.Group[l.A] < 0 {
			continue
		}
		local := d.Local[i]
		r.LinkList[i].Local = &local
		if local {
			r.LocalLinks++
		} else {
			r.GlobalLinks++
		}
	}
	return r
}

// join formats the integers v separated by sep.
func join(v []int, sep string) string {
	s := make([]string, len(v))
	for i, k := range v {
		s[i] = fmt.Sprint(k)
	}
	return strings.Join(s, sep)
}

// writeText prints r for people: a summary, then one line per switch.
func (r *recovered) writeText(w io.Writer) error {
	how := "detected"
	if !r.Detected {
		how = "as asked"
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	switch r.Family {
	case "flatfly":
		fmt.Fprintf(tw, "%s: FlatFly (%s)\n", r.File, how)
		fmt.Fprintf(tw, "switches\t%d, %d mapped (largest connected part)\n", r.Switches, r.Mapped)
		fmt.Fprintf(tw, "links\t%d", r.Links)
		if r.Stray > 0 {
			fmt.Fprintf(tw, " (%d neighbour pairs placed by their coordinates)", r.Stray)
		}
		fmt.Fprintf(tw, "\ndimensions\t%d\nK\t%s\nL\t%s\n", len(r.Dims), join(r.Dims, " × "), join(r.Widths, ", "))
		fmt.Fprintf(tw, "fill\t%.1f %% of the switches of the complete FlatFly, %.1f %% of their neighbours\n\nswitch\tcoordinates\n", 100*r.Fill, 100*r.NeighbourFill)
		for _, s := range r.SwitchList {
			c := "-"
			if s.Mapped {
				c = join(s.Coord, " ")
			}
			fmt.Fprintf(tw, "%s\t%s\n", s.Name, c)
		}
	case "dragonfly":
		fmt.Fprintf(tw, "%s: Dragonfly (%s)\n", r.File, how)
		fmt.Fprintf(tw, "switches\t%d, %d mapped (largest connected part)\n", r.Switches, r.Mapped)
		fmt.Fprintf(tw, "links\t%d: %d local, %d global\n", r.Links, r.LocalLinks, r.GlobalLinks)
		fmt.Fprintf(tw, "groups\t%d, up to %d switches (K)\n", r.Groups, r.GroupSize)
		fmt.Fprintf(tw, "global links\tup to %d per switch (G)\n", r.GlobalPerSwitch)
		if m := r.Model; m != nil {
			given := func(key string) string {
				if slices.Contains(m.Given, key) {
					return "given"
				}
				return "inferred"
			}
			fmt.Fprintf(tw, "shape\tK = %d (%s), G = %d (%s), at most %d groups (%s)\n", m.GroupSize, given("group_size"),
				m.GlobalPerSwitch, given("global_per_switch"), m.Groups, given("groups"))
			fmt.Fprintf(tw, "faults\tabout %.0f %% of the switches and %.0f %% of the local links present\n", 100*m.SwitchSurvival, 100*m.LinkSurvival)
		}
		fmt.Fprintf(tw, "rejoined\t%d switches, into groups that missing switches or links had split\n\nswitch\tgroup\n", r.Rejoined)
		for _, s := range r.SwitchList {
			grp := "-"
			if s.Group != nil {
				grp = fmt.Sprint(*s.Group)
			}
			fmt.Fprintf(tw, "%s\t%s\n", s.Name, grp)
		}
	}
	return tw.Flush()
}
