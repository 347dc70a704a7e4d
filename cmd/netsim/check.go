package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"netsim/experiments"
	"netsim/nic"
	"netsim/routing"
	switching "netsim/switch"
)

// checkCmd returns netsim check.
func checkCmd() *Command {
	var (
		jobs int
		sets []experiments.Override
	)
	return &Command{
		WatchesContext: true,
		Name:           "check",
		UsageLine:      "netsim check FILE.toml ... [-j N] [--set SECTION.KEY=VALUE]...",
		Short:          "check routings for deadlock freedom (channel dependency graph)",
		Long: `Checks the routing of each experiment file for deadlock freedom: builds the
channel dependency graph over (link, VL) channels from every candidate port
the routing can return, for every pair of hosts, and looks for a cycle. An
acyclic graph makes the routing deadlock-free; a cycle means it may
deadlock, and the cycle is printed, one channel (switch, port, VL) a line:
switch indices and ports from 0, or, on a fabric imported from
ibnetdiscover output, node descriptions, GUIDs, LIDs and InfiniBand port
numbers.
Host injection and ejection channels are counted but can never be on a
cycle. Under a [nic] dispersion other than static the graph covers every
route a NIC may take (each source route; each LID of a destination of
tables read with LMC > 0), else the one route Source gives. Tables that
leave pairs of hosts unreachable ([routing] unreachable = "skip") get a
line naming how many ordered pairs and the first few; those pairs are not
checked. The summary also gives the virtual layers the routing needs (for
tables read from a subnet manager's dump: the SLs of its paths, each on the
VL the fabric maps it to; a dump without SLs puts every path on VL 0). Only [topology], [routing], [flow_control] vls and [switch]
vl_choice matter, but the whole file must be valid. Under vl_choice =
"dynamic" the graph is over (link, VL class) channels, and a cycle names
classes: it is acyclic exactly when the graph over (link, VL) with every
VL of a class depending on every VL of the classes it waits for is.

Exit status: 0 every routing is deadlock-free; 1 a cycle was found or a
routing returned an invalid answer; 2 bad command line or experiment file.
`,
		Flags: func(fs *flag.FlagSet) {
			fs.IntVar(&jobs, "j", 0, "search up to `N` destinations at once (default: the number of CPUs); "+
				"the result does not depend on N")
			defineSet(fs, &sets)
		},
		Run: func(ctx context.Context, cmd *Command, ev env, files []string) int {
			if code, done := experimentFiles(cmd, ev, files, jobs); done {
				return code
			}
			return checkCommand(ctx, files, sets, jobs, ev.stdout, ev.stderr)
		},
	}
}

// checkCommand implements netsim check of files with -j jobs.
func checkCommand(ctx context.Context, files []string, sets []experiments.Override, jobs int, stdout, stderr io.Writer) int {
	exps, err := loadExperiments(ctx, files, sets)
	if code, ok := interruptedLoading(stderr, "netsim check", err); ok {
		return code
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	code := exitOK
	for _, e := range exps {
		if c := checkExperiment(ctx, e, jobs, stdout, stderr); c != exitOK {
			code = c
		}
	}
	return code
}

// checkExperiment checks the routing of e and prints the verdict.
func checkExperiment(ctx context.Context, e *experiments.Experiment, jobs int, stdout, stderr io.Writer) int {
	vls := e.FlowControl.VLs
	what := fmt.Sprintf("%s: %s on %s, %d VL", e.File, e.Routing, e.TopologyLabel(), vls)
	if e.Variant != "" {
		what = fmt.Sprintf("%s [%s]: %s on %s, %d VL", e.File, e.Variant, e.Routing, e.TopologyLabel(), vls)
	}
	if vls != 1 {
		what += "s"
	}
	if e.Switch.VLChoice == switching.VLDynamic {
		// The routing sees VL classes, and its graph over them decides
		// (routing.Classes): the channels' VLs below are classes.
		vls = e.RoutingFunc().VLs()
		what += fmt.Sprintf(" in %d dynamic VL class", vls)
		if vls != 1 {
			what += "es"
		}
	}
	// NICs that disperse their packets use every route of a multipath
	// routing (every LID of a destination under LMC); static ones one.
	allRoutes := e.NIC.Dispersion != nic.Static
	rep, err := routing.CheckDeadlock(ctx, e.RoutingFunc(), e.Network(), routing.CheckOptions{VLs: vls, Workers: jobs, AllRoutes: allRoutes})
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", what, err)
		return exitFailed
	}
	if note := unreachableNote(e); note != "" {
		fmt.Fprintf(stdout, "%s: %s, not checked\n", what, note)
	}
	summary := fmt.Sprintf("%s: %d channels (+%d injection, %d ejection), %d dependencies, %s needed",
		what, rep.Channels, rep.Injection, rep.Ejection, rep.Dependencies, plural(routing.Layers(e.RoutingFunc()), "layer", "layers"))
	if rep.Acyclic() {
		if _, err := fmt.Fprintf(stdout, "%s: deadlock-free (acyclic CDG)\n", summary); err != nil {
			fmt.Fprintf(stderr, "netsim: %v\n", err)
			return exitFailed
		}
		return exitOK
	}
	fmt.Fprintf(stdout, "%s: CYCLE of %d channels, may deadlock:\n", summary, len(rep.Cycle))
	net := e.Network()
	for _, c := range rep.Cycle {
		lane := fmt.Sprintf("VL %d", c.VL)
		if e.Switch.VLChoice == switching.VLDynamic {
			lane = fmt.Sprintf("class %d", c.VL)
		}
		if net.IB != nil {
			// The fabric's own names and InfiniBand port numbers.
			fmt.Fprintf(stdout, "  switch %s port %d -> switch %s port %d %s\n",
				net.SwitchLabel(c.Switch), c.Port+1, net.SwitchLabel(c.PeerSwitch), c.PeerPort+1, lane)
			continue
		}
		fmt.Fprintf(stdout, "  switch %d port %d -> switch %d port %d %s\n", c.Switch, c.Port, c.PeerSwitch, c.PeerPort, lane)
	}
	return exitFailed
}

// unreachableNote describes the pairs of hosts e's routing leaves
// unreachable — their number and the first few, in the fabric's names —
// or returns "" when it connects every pair.
func unreachableNote(e *experiments.Experiment) string {
	const examples = 3
	pairs, ex := e.Unreachable(examples)
	if pairs == 0 {
		return ""
	}
	net := e.Network()
	names := make([]string, len(ex))
	for i, p := range ex {
		names[i] = net.HostLabel(p[0]) + " -> " + net.HostLabel(p[1])
	}
	hosts := int64(e.Hosts())
	more := ""
	if pairs > int64(len(ex)) {
		more = ", …"
	}
	return fmt.Sprintf("%d of %d ordered pairs of hosts unreachable by the tables (%s%s)", pairs, hosts*(hosts-1), strings.Join(names, ", "), more)
}
