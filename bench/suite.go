// Package bench is netsim's fixed benchmark suite: simulation points whose
// cost per flit-hop, kernel events and memory two builds of netsim are
// compared on (netsim bench), each one experiment file's point, built as
// netsim run builds it.
package bench

import (
	"context"
	"fmt"
	"strings"
	"time"

	"netsim/experiments"
	"netsim/fabric"
)

// Case is one point of the suite.
type Case struct {
	// Name identifies the case on the command line and in results.
	Name string
	// Doc says what the case stands for.
	Doc string
	// File is the experiment file the point belongs to; its first
	// pattern is simulated at Load, without drain.
	File string
	// Load is the offered load.
	Load float64
	// Cycles is the run's length at scale 1: a fifth warm-up, the rest
	// measured.
	Cycles int64
}

// point returns the experiment file of a case: the seed-004 hardware
// (studies/seed004/common/hw.toml: credits, 8 VLs of 64 flits, virtual
// cut-through), topology, routing algorithm and uniform traffic of
// packetFlits-flit packets.
func point(name, topology, algorithm string, packetFlits int) string {
	return fmt.Sprintf(`name = %q
seed = 1
[flow_control]
kind = "credit"
vls = 8
buffer_flits = 64
[switch]
switching = "cut-through"
[topology]
%s
[routing]
algorithm = %q
[traffic]
pattern = "uniform"
packet_flits = %d
`, name, topology, algorithm, packetFlits)
}

// Suite returns the cases, in the order netsim bench runs them: the
// networks netsim has been measured on against BookSim and at seed 004's
// scale, from 64 to 16,384 hosts, all on the seed-004 hardware.
func Suite() []Case {
	c := func(name, doc, topology, algorithm string, packetFlits int, load float64, cycles int64) Case {
		return Case{Name: name, Doc: doc, File: point(name, topology, algorithm, packetFlits), Load: load, Cycles: cycles}
	}
	return []Case{
		c("torus-8x8-1flit", "torus 8×8, 1 host per switch (64 hosts), DOR, uniform, 1-flit packets, load 0.3",
			"kind = \"torus\"\ndims = [8, 8]\nhosts_per_switch = 1", "dor", 1, 0.3, 200000),
		c("flatfly-8x8-c8-1flit", "FlatFly 8×8, 8 hosts per switch (512 hosts), DOR, uniform, 1-flit packets, load 0.5",
			"kind = \"flatfly\"\ndims = [8, 8]\nhosts_per_switch = 8", "dor", 1, 0.5, 20000),
		c("flatfly-16x16-c16", "FlatFly 16×16, 16 hosts per switch (4,096 hosts), DOR, uniform, 16-flit packets, load 0.5",
			"kind = \"flatfly\"\ndims = [16, 16]\nhosts_per_switch = 16", "dor", 16, 0.5, 5000),
		c("seed004-flatfly", "seed 004's FlatFly 4×8×8×8, widths 2,1,1,1, 8 hosts per switch (16,384 hosts), DOR, uniform, 16-flit packets, load 0.5",
			"preset = \"flatfly\"", "dor", 16, 0.5, 5000),
		c("seed004-dragonfly", "seed 004's Dragonfly (16,384 hosts), GSID, uniform, 16-flit packets, load 0.5",
			"preset = \"dragonfly\"", "GSID", 16, 0.5, 5000),
	}
}

// Lookup returns the case called name.
func Lookup(name string) (Case, bool) {
	for _, c := range Suite() {
		if c.Name == name {
			return c, true
		}
	}
	return Case{}, false
}

// Names returns the cases' names, in order.
func Names() []string {
	var ns []string
	for _, c := range Suite() {
		ns = append(ns, c.Name)
	}
	return ns
}

// Point is what a case's simulation measured: the network's hosts, the
// cycles simulated, the flit-hops (flits across links, host links
// included) and kernel events, the CPU time (every thread, the garbage
// collector's included) and wall time of the simulation alone, the wall
// time of building the network and its routing before it, and the
// process's peak resident memory (0 where the system does not say, and
// CPU then the wall time). Run it in a process of its own for the memory
// to be the case's (netsim bench does).
type Point struct {
	Hosts    int     `json:"hosts"`
	Threads  int     `json:"threads"`
	Cycles   int64   `json:"cycles"`
	FlitHops int64   `json:"flit_hops"`
	Events   int64   `json:"events"`
	CPU      float64 `json:"cpu_seconds"`
	Wall     float64 `json:"wall_seconds"`
	Build    float64 `json:"build_seconds"`
	PeakRSS  int64   `json:"peak_rss_bytes"`
}

// Run builds and simulates case c, its length Cycles·scale (at least 10
// cycles), on threads threads (fabric.Config.Threads; 0 acts as 1).
func Run(ctx context.Context, c Case, scale float64, threads int) (Point, error) {
	t0 := time.Now()
	e, err := experiments.Parse(c.Name+".toml", []byte(c.File))
	if err != nil {
		return Point{}, fmt.Errorf("case %s: %w", c.Name, err)
	}
	cycles := max(int64(float64(c.Cycles)*scale), 10)
	cfg := e.Config(0, c.Load)
	cfg.Warmup, cfg.Measure, cfg.Drain = cycles/5, cycles-cycles/5, 0
	cfg.Threads = max(threads, 1)
	build := time.Since(t0).Seconds()
	cpu0, _, _ := usage()
	t1 := time.Now()
	st, err := fabric.Run(ctx, cfg)
	if err != nil {
		return Point{}, fmt.Errorf("case %s: %w", c.Name, err)
	}
	p := Point{Hosts: e.Hosts(), Threads: cfg.Threads, Cycles: st.Cycles, FlitHops: st.FlitHops, Events: st.Events,
		Wall: time.Since(t1).Seconds(), Build: build}
	p.CPU = p.Wall
	if cpu1, peak, ok := usage(); ok {
		p.CPU, p.PeakRSS = (cpu1 - cpu0).Seconds(), peak
	}
	return p, nil
}

// Doc returns the suite's description, one line per case.
func Doc() string {
	var b strings.Builder
	for _, c := range Suite() {
		fmt.Fprintf(&b, "  %-22s %s, %d cycles\n", c.Name, c.Doc, c.Cycles)
	}
	return b.String()
}
