package main

import (
	"fmt"
	"slices"
	"strings"

	"netsim/topologies"
)

// presetNames lists the names of topologies.Presets, in their order.
func presetNames() []string {
	var names []string
	for _, p := range topologies.Presets() {
		names = append(names, p.Name)
	}
	return names
}

// presetNetwork builds the preset called name; the error for an unknown
// name lists the known presets.
func presetNetwork(name string) (*topologies.Network, error) {
	if names := presetNames(); !slices.Contains(names, name) {
		return nil, fmt.Errorf("--preset: unknown preset %q (known: %s)", name, strings.Join(names, ", "))
	}
	net, err := topologies.Build(topologies.Spec{Preset: name})
	if err != nil {
		return nil, fmt.Errorf("--preset %s: %w", name, err)
	}
	return net, nil
}

// oneSource checks that exactly one of an experiment file and a preset is
// named: files holds the file arguments, preset the value of --preset.
func oneSource(files []string, preset string) error {
	switch {
	case preset != "" && len(files) > 0:
		return fmt.Errorf("give an experiment file or --preset, not both")
	case preset == "" && len(files) != 1:
		return fmt.Errorf("need one experiment file or --preset NAME, got %d files", len(files))
	}
	return nil
}
