package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"

	"netsim/experiments"
	"netsim/topologies"
)

// topoDescribeCmd returns netsim topo describe.
func topoDescribeCmd() *Command {
	var (
		asJSON bool
		preset string
	)
	return &Command{
		Name:      "describe",
		UsageLine: "netsim topo describe (FILE.toml | --preset NAME) [--json]",
		Short:     "print a network's size, diameter, distances and bisection",
		Long: `Builds the network of the [topology] section of FILE.toml (the other
sections are not read), or the named preset, and prints its switches,
hosts, inter-switch links (parallel links counted), radix (ports used on
the fullest switch), diameter (switch-to-switch hops; host links do not
count), the average distance between the switches of two distinct hosts,
and its relative bisection bandwidth: the links crossing the narrowest
balanced cut divided by half the hosts (50 % = half the hosts' injection
bandwidth). The bisection comes from the family's formula when there is
one; otherwise it is a graph-partition estimate, marked "(estimate)",
which is never below the true value.
`,
		Flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&asJSON, "json", false, "print one JSON object: file or preset, topology, kind, "+
				"switches, hosts, links, radix, diameter, avg_distance, bisection (a fraction), "+
				"bisection_exact, and cut_links for an estimate")
			fs.StringVar(&preset, "preset", "", "describe the preset `NAME` instead of a file: torus3d, "+
				"torus4d, flatfly, hypercube, dragonfly, sfxff1, sfxff2 (seed 004's 16,384-host networks), "+
				"myrinet512, deimos")
		},
		Run: func(_ context.Context, cmd *Command, ev env, files []string) int {
			if err := oneSource(files, preset); err != nil {
				return cmd.usageError(ev, err)
			}
			return topoDescribe(files, preset, asJSON, ev.stdout, ev.stderr)
		},
	}
}

// describeJSON is the --json output of netsim topo describe.
type describeJSON struct {
	File           string  `json:"file,omitempty"`
	Preset         string  `json:"preset,omitempty"`
	Topology       string  `json:"topology"`
	Kind           string  `json:"kind"`
	Switches       int     `json:"switches"`
	Hosts          int     `json:"hosts"`
	Links          int     `json:"links"`
	Radix          int     `json:"radix"`
	Diameter       int     `json:"diameter"`
	AvgDistance    float64 `json:"avg_distance"`
	Bisection      float64 `json:"bisection"`
	BisectionExact bool    `json:"bisection_exact"`
	CutLinks       int     `json:"cut_links,omitempty"`
}

// topoDescribe implements netsim topo describe of the one file in files,
// or of the preset, printing JSON with asJSON.
func topoDescribe(files []string, preset string, asJSON bool, stdout, stderr io.Writer) int {
	var err error
	var (
		net  *topologies.Network
		file string
		what = "--preset " + preset // where a Describe error comes from
	)
	if preset != "" {
		net, err = presetNetwork(preset)
		if err != nil {
			err = fmt.Errorf("netsim topo describe: %w", err)
		}
	} else {
		file = files[0]
		what = file + ": [topology]"
		net, err = experiments.LoadTopology(file)
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	s, err := topologies.Describe(net)
	if err != nil {
		fmt.Fprintf(stderr, "%s %v\n", what, err)
		return exitUsage
	}
	if asJSON {
		return writeDescribeJSON(stdout, stderr, describeJSON{
			File: file, Preset: preset, Topology: experiments.NetworkLabel(net), Kind: s.Kind,
			Switches: s.Switches, Hosts: s.Hosts, Links: s.Links, Radix: s.Radix,
			Diameter: s.Diameter, AvgDistance: round6(s.AvgDistance),
			Bisection: round6(s.Bisection), BisectionExact: s.BisectionExact, CutLinks: s.CutLinks,
		})
	}
	bisection := fmt.Sprintf("%.1f %% (exact)", 100*s.Bisection)
	if !s.BisectionExact {
		bisection = fmt.Sprintf("%.1f %% (estimate), %d links cross the best balanced cut found", 100*s.Bisection, s.CutLinks)
	}
	source := [2]string{"file", file}
	if preset != "" {
		source = [2]string{"preset", preset}
	}
	rows := [][2]string{
		source,
		{"topology", experiments.NetworkLabel(net)},
		{"switches", fmt.Sprint(s.Switches)},
		{"hosts", fmt.Sprint(s.Hosts)},
		{"links", fmt.Sprintf("%d inter-switch", s.Links)},
		{"radix", fmt.Sprintf("%d ports used", s.Radix)},
		{"diameter", fmt.Sprintf("%d switch hops", s.Diameter)},
		{"avg distance", fmt.Sprintf("%.4f switch hops between hosts", s.AvgDistance)},
		{"bisection", bisection},
	}
	for _, r := range rows {
		if _, err := fmt.Fprintf(stdout, "%-13s %s\n", r[0], r[1]); err != nil {
			fmt.Fprintf(stderr, "netsim: %v\n", err)
			return exitFailed
		}
	}
	return exitOK
}

// writeDescribeJSON prints v as one line of JSON.
func writeDescribeJSON(stdout, stderr io.Writer, v describeJSON) int {
	b, err := json.Marshal(v)
	if err == nil {
		_, err = fmt.Fprintf(stdout, "%s\n", b)
	}
	if err != nil {
		fmt.Fprintf(stderr, "netsim: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// round6 rounds x to 6 decimals, for stable output.
func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }
