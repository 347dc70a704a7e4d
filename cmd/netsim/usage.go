package main

// usage describes every command.
const usage = `netsim simulates HPC interconnection networks flit by flit.

Usage:

  netsim run [FILE.toml ...] [-o DIR] [-j N] [--json]
        run experiments (the embedded quick start when no file is given)
  netsim table RESULTS.jsonl ... [--rows KEYS] [--cols KEY] [--value V] [--format md|csv] [-o FILE]
        pivot results into a markdown or CSV table (saturation per pattern, ...)
  netsim plot RESULTS.jsonl ... -o DIR [--by routing|pattern]
        draw throughput, latency and saturation charts (PNG and SVG)
  netsim topo describe (FILE.toml | --preset NAME) [--json]
        print a network's size, diameter, distances and bisection
  netsim topo export (FILE.toml | --preset NAME) [-o OUT.dot] [--routes]
        write a network in the ORCS dot format
  netsim topo recover FILE [--as flatfly|dragonfly] [--json]
        recover FlatFly coordinates or Dragonfly groups from a link list
  netsim version
        print the version
  netsim help [COMMAND]
        print this help, or the help of COMMAND

Exit status: 0 success; 1 a simulation point failed (e.g. deadlock) or
results could not be written; 2 bad command line or experiment file.

` + runUsage

// runUsage describes netsim run.
const runUsage = `netsim run [FILE.toml ...] [-o DIR] [-j N] [--json]

Runs each experiment file (see the README for the TOML reference) and
prints a readable table of its points and saturation results; with no file
it runs the embedded quick-start experiment. Flags may come before or
after the files.

  -o DIR   also write DIR/results.jsonl (one JSON object per line) and,
           from it, DIR/table.md (markdown tables), DIR/table.csv (as
           netsim table prints it) and the charts of netsim plot; DIR is
           created if needed
  -j N     simulate up to N points at once (default: the number of CPUs);
           results do not depend on N
  --json   print one JSON object per line on stdout instead of the table

Failed points (for example a deadlock) are reported on stderr, and as
"kind":"error" lines with --json; netsim then exits with status 1.
`

// versionUsage describes netsim version.
const versionUsage = `netsim version

Prints netsim's version, the Go version it was built with and, when known,
the module version and VCS revision.
`
