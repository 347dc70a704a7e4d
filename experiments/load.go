package experiments

import (
	"errors"
	"fmt"
	"os"
)

// Load reads, decodes, validates and builds the experiment file at path.
// Every problem is reported, each as an *InputError naming the file, the
// line where possible, the section and the key; several are joined with
// errors.Join.
func Load(path string) (*Experiment, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &InputError{File: path, Msg: fmt.Sprintf("cannot read: %v", errors.Unwrap(err))}
	}
	return Parse(path, data)
}

// Parse is Load for the contents data of a file called file.
func Parse(file string, data []byte) (*Experiment, error) {
	e, d, err := parse(file, data)
	if err != nil {
		return nil, err
	}
	d.build(e)
	if len(d.errs) > 0 {
		d.sortErrors()
		return nil, errors.Join(d.errs...)
	}
	return e, nil
}

// LoadAll loads every file of paths and checks that experiment names are
// unique, so that results can be told apart. It returns every problem of
// every file.
func LoadAll(paths []string) ([]*Experiment, error) {
	var (
		exps []*Experiment
		errs []error
		seen = map[string]string{}
	)
	for _, p := range paths {
		e, err := Load(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if other, dup := seen[e.Name]; dup {
			d := &decoder{file: p, lines: e.lines}
			d.fail("", "name", "experiment name %q is also used by %s (expected unique names)", e.Name, other)
			errs = append(errs, d.errs...)
			continue
		}
		seen[e.Name] = p
		exps = append(exps, e)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return exps, nil
}
