// Package experiments turns experiment files into simulation runs and
// results.
//
// An experiment file is TOML, possibly including other files (include =
// [...], merged key by key). Its keys are declared once, in Schema
// (section, name, type, default, range or values, doc): decoding takes
// them from there, unknown keys are found (and near misses named) with it,
// and the key tables of docs/experiment-file.md are generated from it.
// LoadFile
// decodes, validates and builds it: every problem comes back as an
// *InputError naming the file (the included one at fault), the line where
// possible, the section and the key. A key of the hardware and traffic
// sections given as an array of values is swept, and the file expands into
// one Experiment per variant (the cartesian product, in a fixed order).
//
// Plan lists a run's tasks — one per (variant, pattern, listed load), one
// per saturation search, and for a bisection exchange (seed 001) one per
// exchange pattern, whose record is its effective bisection bandwidth
// (KindEBB) — and a Shard selects a deterministic part of
// them. A Runner simulates them in parallel, for fixed loads or a
// saturation search (by bisection, or from the previous variant's result,
// either one optionally guided by the load each unstable point accepted:
// Sweep.Search, Sweep.Guide), and emits Records in the order of the
// experiment definition whatever the parallelism. Every record has a point
// key (Record.Key); a run appends its records to a ResultsFile as they
// finish and a later run resumes from it (Store), simulating only what is
// missing. Merge combines the results of shards. Results come out as JSON
// lines (WriteJSON, one results.Line per record, the record package
// netsim/results declares) or readable text (TextWriter); package
// experiments/report turns JSON lines into tables and plots.
//
// Below this package, configuration travels typed: fabric.Config,
// switching.Params, flowctl.Params and nic.Dispersion carry enumerations,
// not strings, and the packages' errors about a key are *keyerr.Error
// values, which this package attributes to the file, line and section.
package experiments
