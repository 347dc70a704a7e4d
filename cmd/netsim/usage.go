package main

// usage describes every command.
const usage = `netsim simulates HPC interconnection networks flit by flit.

Usage:

  netsim run [FILE.toml ...] [-o DIR] [-j N] [--json] [--dry-run] [-q] [--shard I/N]
        run experiments (the embedded quick start when no file is given)
  netsim validate FILE.toml ...
        check experiment files without running them
  netsim merge RESULTS.jsonl ... [-o OUT.jsonl] [--check FILE.toml]...
        combine the results of shards, reporting missing or duplicated points
  netsim table RESULTS.jsonl ... [--rows KEYS] [--cols KEY] [--value V] [--format md|csv] [-o FILE]
        pivot results into a markdown or CSV table (saturation per pattern, ...)
  netsim plot RESULTS.jsonl ... -o DIR [--by routing|pattern]
        draw throughput, latency, saturation and EBB charts (PNG and SVG)
  netsim congestion FILE.toml [--json] [--runs N] [-j N] [-o DIR]
        congestion model of oblivious routings (ORCS): Λ, π, cable map
  netsim topo describe (FILE.toml | --preset NAME) [--json]
        print a network's size, diameter, distances and bisection
  netsim topo export (FILE.toml | --preset NAME) [-o OUT.dot] [--routes | --lft]
        write a network in the ORCS dot format
  netsim topo recover FILE [--as flatfly|dragonfly] [--json]
        recover FlatFly coordinates or Dragonfly groups from a link list
  netsim check FILE.toml ... [-j N]
        check routings for deadlock freedom (channel dependency graph)
  netsim load FILE.toml ... [--json] [-j N]
        channel load of routings under traffic patterns, and the
        saturation bound it sets
  netsim version
        print the version
  netsim help [COMMAND]
        print this help, or the help of COMMAND

Exit status: 0 success; 1 a simulation point failed (e.g. deadlock), the
run was interrupted, results could not be written, merge found missing or
conflicting points, check found a dependency cycle, or load found a
routing that loses flows; 2 bad command line,
experiment or results file.

` + runUsage

// runUsage describes netsim run.
const runUsage = `netsim run [FILE.toml ...] [-o DIR] [-j N] [--json] [--dry-run] [-q] [--shard I/N]

Runs each experiment file (see the README for the TOML reference), every
variant of its sweeps, and prints a readable table of its points and
saturation results, or one line per exchange pattern of a bisection
exchange (its effective bisection bandwidth); with no file it runs the
embedded quick-start experiment. Flags may come before or after the files.

  -o DIR       also write DIR/results.jsonl (one JSON object per line,
               appended as each point finishes) and, from it, DIR/table.md
               (markdown tables), DIR/table.csv (as netsim table prints it)
               and the charts of netsim plot; DIR is created if needed.
               Run the same command again after an interruption: the
               points already in results.jsonl are not simulated again
  -j N         simulate up to N points at once (default: the number of
               CPUs); results do not depend on N
  --json       print one JSON object per line on stdout instead of the table
  --dry-run    list the points that would run (experiment, variant,
               pattern, load, "saturation search" or "exchange"; "done" when -o DIR
               already holds it) and stop
  -q           no progress display on stderr
  --shard I/N  run only shard I (0 ≤ I < N) of the points; merge the
               shards' results with netsim merge

Failed points (for example a deadlock) are reported on stderr, and as
"kind":"error" lines with --json; netsim then exits with status 1, as when
interrupted (Ctrl-C keeps the finished points in results.jsonl).
`

// validateUsage describes netsim validate.
const validateUsage = `netsim validate FILE.toml ...

Reads, checks and builds each experiment file as netsim run would, without
simulating, and prints "FILE: ok (N points, M saturation searches)" (the
lines --dry-run lists, by kind; a search tests several loads; "K
exchanges" for bisection exchanges; ", V variants" when the file sweeps
keys; "a congestion study" for a file with [congestion] and no
[traffic]) or every problem as FILE:LINE: [section] key: what is wrong
(expected ...).
Exits with status 2 if any file has a problem.
`

// mergeUsage describes netsim merge.
const mergeUsage = `netsim merge RESULTS.jsonl ... [-o OUT.jsonl] [--check FILE.toml]...

Combines results files, typically the results.jsonl of the shards of one
run (netsim run --shard I/N), into one with every point once, on stdout or
in OUT.jsonl. Identical duplicate lines are left out; conflicting ones are
reported (the first is kept). Lines are sorted by experiment, variant,
pattern and load; with --check (the experiment files the shards ran,
repeated for several) they come in the order the unsharded run writes
them, and points missing from every input, or not of these files, are
reported. Exits with status 1 on conflicting, missing or foreign points or
a half-written line, 2 on a bad command line or unreadable input.
`

// versionUsage describes netsim version.
const versionUsage = `netsim version

Prints netsim's version, the Go version it was built with and, when known,
the module version and VCS revision.
`
