package experiments

import (
	"errors"
	"fmt"
	"os"

	"github.com/BurntSushi/toml"

	"netsim/topologies"
)

// topLevelKeys lists the keys an experiment file accepts outside any
// section, sections included.
func topLevelKeys() []string {
	return append([]string{"name", "description", "seed"}, sectionNames()...)
}

// LoadTopology reads the experiment file at path and builds the network of
// its [topology] section alone. The file's top-level keys are checked, the
// other sections are not (netsim run checks them), so a file holding only
// a [topology] section is accepted. Problems are reported as by Load.
func LoadTopology(path string) (*topologies.Network, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &InputError{File: path, Msg: fmt.Sprintf("cannot read: %v", errors.Unwrap(err))}
	}
	return ParseTopology(path, data)
}

// ParseTopology is LoadTopology for the contents data of a file called file.
func ParseTopology(file string, data []byte) (*topologies.Network, error) {
	text := string(data)
	var root map[string]any
	if _, err := toml.Decode(text, &root); err != nil {
		return nil, syntaxError(file, text, err)
	}
	d := &decoder{file: file, lines: newKeyLines(text)}
	d.checkKeys(root, "", topLevelKeys()...)
	var e Experiment
	d.topology(&e, d.table(root, "topology", true))
	if len(d.errs) == 0 {
		net, err := topologies.Build(e.Topology)
		if err == nil {
			return net, nil
		}
		d.builderError("topology", err)
	}
	d.sortErrors()
	return nil, errors.Join(d.errs...)
}

// NetworkLabel describes n compactly and stably, as the topology field of
// results does: "flatfly 8x8 w1,1 c8", "ring 8 w1 c2", "crossbar h16".
func NetworkLabel(n *topologies.Network) string { return topologyLabel(n) }
