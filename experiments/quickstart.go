package experiments

import _ "embed"

// quickStart is the experiment netsim runs when given no file.
//
//go:embed quickstart.toml
var quickStart []byte

// QuickStartFile is the name under which the embedded quick-start
// experiment is reported.
const QuickStartFile = "quickstart.toml"

// QuickStart returns the embedded quick-start experiment: a small
// Flattened Butterfly under DOR, uniform and complement traffic, with a
// coarse saturation search and a few extra loads.
func QuickStart() (*Experiment, error) {
	return Parse(QuickStartFile, quickStart)
}

// QuickStartText returns the text of the quick-start experiment file.
func QuickStartText() string { return string(quickStart) }
