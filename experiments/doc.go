// Package experiments turns experiment files into simulation runs and
// results.
//
// An experiment file is TOML (see the README for every key). Load decodes
// and validates it: every problem comes back as an *InputError naming the
// file, the line where possible, the section and the key. A loaded
// Experiment expands into points — one fabric.Config per (pattern, load) —
// which a Runner simulates in parallel, either for a fixed list of loads or
// for a saturation search by bisection. Results come out as Records, in the
// order of the experiment definition whatever the parallelism, and can be
// written as JSON lines (WriteJSON) or readable text (TextWriter); package
// experiments/report turns JSON lines into tables and plots.
package experiments
