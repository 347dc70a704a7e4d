package experiments

import (
	"errors"
	"fmt"
	"os"

	"github.com/BurntSushi/toml"

	"netsim/topologies"
)

// LoadNetwork reads the experiment file at path and builds only its
// network. Just the [topology] section is decoded and checked, so a file
// holding only [topology] is enough; problems are *InputError values as
// with Load.
func LoadNetwork(path string) (*topologies.Network, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &InputError{File: path, Msg: fmt.Sprintf("cannot read: %v", errors.Unwrap(err))}
	}
	text := string(data)
	var root map[string]any
	if _, err := toml.Decode(text, &root); err != nil {
		return nil, syntaxError(path, text, err)
	}
	d := &decoder{file: path, lines: newKeyLines(text)}
	e := &Experiment{File: path}
	d.topology(e, d.table(root, "topology", true))
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
