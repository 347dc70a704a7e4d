package main

// usage describes every command.
const usage = `netsim simulates HPC interconnection networks flit by flit.

Usage:

  netsim run [FILE.toml ...] [-o DIR] [-j N] [--json]
        run experiments (the embedded quick start when no file is given)
  netsim topo describe FILE.toml [--json]
        print a network's size, diameter, distances and bisection
  netsim topo export FILE.toml [-o OUT.dot] [--routes]
        write the network of FILE.toml in the ORCS dot format
  netsim topo recover FILE [--as flatfly|dragonfly] [--json]
        recover FlatFly coordinates or Dragonfly groups from a link list
  netsim check FILE.toml ... [-j N]
        check routings for deadlock freedom (channel dependency graph)
  netsim version
        print the version
  netsim help [COMMAND]
        print this help, or the help of COMMAND

Exit status: 0 success; 1 a simulation point failed (e.g. deadlock),
results could not be written, or check found a dependency cycle; 2 bad
command line or experiment file.

` + runUsage

// runUsage describes netsim run.
const runUsage = `netsim run [FILE.toml ...] [-o DIR] [-j N] [--json]

Runs each experiment file (see the README for the TOML reference) and
prints a readable table of its points and saturation results; with no file
it runs the embedded quick-start experiment. Flags may come before or
after the files.

  -o DIR   also write DIR/results.jsonl (one JSON object per line) and
           DIR/table.md (markdown tables); DIR is created if needed
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
