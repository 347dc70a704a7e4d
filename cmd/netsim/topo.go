package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"

	"netsim/experiments"
	"netsim/topologies"
)

// topoCommand implements netsim topo SUBCOMMAND.
func topoCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintf(stderr, "netsim topo: missing subcommand\n\n%s", topoUsage)
		return exitUsage
	}
	switch args[0] {
	case "describe":
		return topoDescribe(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, topoUsage)
		return exitOK
	default:
		fmt.Fprintf(stderr, "netsim topo: unknown subcommand %q\n\n%s", args[0], topoUsage)
		return exitUsage
	}
}

// describeJSON is the --json output of netsim topo describe.
type describeJSON struct {
	File           string  `json:"file"`
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

// topoDescribe implements netsim topo describe FILE.toml [--json].
func topoDescribe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("netsim topo describe", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print one JSON object")
	var files []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, files = args[:i], args[i+1:]
	}
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, topoUsage)
			return exitOK
		}
		if err != nil {
			fmt.Fprintf(stderr, "netsim topo describe: %v\n\n%s", err, topoUsage)
			return exitUsage
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(files) != 1 {
		fmt.Fprintf(stderr, "netsim topo describe: need one experiment file, got %d\n\n%s", len(files), topoUsage)
		return exitUsage
	}
	file := files[0]
	net, err := experiments.LoadTopology(file)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	s, err := topologies.Describe(net)
	if err != nil {
		fmt.Fprintf(stderr, "%s: [topology] %v\n", file, err)
		return exitUsage
	}
	if *asJSON {
		return writeDescribeJSON(stdout, stderr, describeJSON{
			File: file, Topology: experiments.NetworkLabel(net), Kind: s.Kind,
			Switches: s.Switches, Hosts: s.Hosts, Links: s.Links, Radix: s.Radix,
			Diameter: s.Diameter, AvgDistance: round6(s.AvgDistance),
			Bisection: round6(s.Bisection), BisectionExact: s.BisectionExact, CutLinks: s.CutLinks,
		})
	}
	bisection := fmt.Sprintf("%.1f %% (exact)", 100*s.Bisection)
	if !s.BisectionExact {
		bisection = fmt.Sprintf("%.1f %% (estimate), %d links cross the best balanced cut found", 100*s.Bisection, s.CutLinks)
	}
	rows := [][2]string{
		{"file", file},
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
