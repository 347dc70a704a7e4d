package experiments

import (
	"errors"

	"netsim/topologies"
)

// LoadTopology reads the experiment file at path, with the files it
// includes, and builds the network of its [topology] section alone (which
// must not sweep keys). The file's top-level keys are checked, the
// other sections are not (netsim run checks them), so a file holding only
// a [topology] section is accepted. Problems are reported as by Load.
func LoadTopology(path string) (*topologies.Network, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return ParseTopology(path, data)
}

// ParseTopology is LoadTopology for the contents data of a file called file.
func ParseTopology(file string, data []byte) (*topologies.Network, error) {
	root, src, err := readTree(file, data, nil)
	if err != nil {
		return nil, err
	}
	d := &decoder{src: src}
	d.checkKeys(root, "", sectionKeys(""))
	for _, a := range d.findSweeps(root) {
		if a.section == "topology" {
			d.fail(a.section, a.key, "sweeps %d values; a topology command takes one network (give a single value)", len(a.values))
		}
	}
	if len(d.errs) > 0 {
		d.sortErrors()
		return nil, errors.Join(d.errs...)
	}
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
