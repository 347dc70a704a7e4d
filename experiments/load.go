package experiments

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"netsim/internal/fileio"
)

// Load reads, decodes, validates and builds the experiment file at path,
// which must describe one experiment (a file that sweeps keys is an error;
// LoadFile returns its variants). Every problem is reported, each as an
// *InputError naming the file, the line where possible, the section and
// the key; several are joined with errors.Join.
func Load(path string) (*Experiment, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse is Load for the contents data of a file called file.
func Parse(file string, data []byte) (*Experiment, error) {
	exps, err := ParseFile(file, data)
	if err != nil {
		return nil, err
	}
	exps = slices.DeleteFunc(exps, func(e *Experiment) bool { return e.Replication > 0 })
	if len(exps) > 1 {
		keys := make([]string, len(exps[0].Params))
		for i, p := range exps[0].Params {
			keys[i] = p.Key
		}
		return nil, &InputError{File: file, Msg: fmt.Sprintf("sweeps %s: %d variants, expected a single experiment (give one value per key)",
			strings.Join(keys, ", "), len(exps))}
	}
	return exps[0], nil
}

// LoadFile reads the experiment file at path with the files it includes,
// sets the keys of overrides over theirs (ParseOverride), and returns one
// built experiment per variant of its sweeps (one when it sweeps
// nothing), in canonical order. Problems are reported as by Load, those
// of an override naming it ("--set switch.vl_choice=adaptive").
func LoadFile(path string, overrides ...Override) ([]*Experiment, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return ParseFile(path, data, overrides...)
}

// ParseFile is LoadFile for the contents data of a file called file;
// included files are read from disk, relative to file's directory.
func ParseFile(file string, data []byte, overrides ...Override) ([]*Experiment, error) {
	root, src, err := readTree(file, data, overrides)
	if err != nil {
		return nil, err
	}
	return expand(file, root, src, true)
}

// readFile reads an experiment file, a regular file of at most
// MaxFileBytes, reporting failure as an *InputError.
func readFile(path string) ([]byte, error) {
	data, err := fileio.ReadFile(path, MaxFileBytes)
	if err != nil {
		return nil, &InputError{File: path, Msg: "cannot read: " + strings.TrimPrefix(readError(path, err), path+": ")}
	}
	return data, nil
}

// LoadAll loads every file of paths (LoadFile) and checks that experiment
// names are unique across files, so that results can be told apart. It
// returns the variants of every file, file by file, or every problem of
// every file. The overrides apply to every file.
func LoadAll(paths []string, overrides ...Override) ([]*Experiment, error) {
	var (
		exps []*Experiment
		errs []error
	)
	if err := DistinctFiles(paths); err != nil {
		errs = append(errs, err)
	}
	for _, p := range paths {
		e, err := LoadFile(p, overrides...)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		exps = append(exps, e...)
	}
	if err := UniqueNames(exps); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return exps, nil
}

// DistinctFiles checks that no experiment file is given twice among paths
// (as the same path, or two that lead to it, links included): its points
// would run twice. Paths that cannot be read are compared by their
// absolute names (reading them reports the problem).
func DistinctFiles(paths []string) error {
	var errs []error
	type file struct {
		path, abs string
		info      os.FileInfo
	}
	var seen []file
	for _, p := range paths {
		f := file{path: p, abs: filepath.Clean(p)}
		if abs, err := filepath.Abs(p); err == nil {
			f.abs = abs
		}
		f.info, _ = os.Stat(p)
		i := slices.IndexFunc(seen, func(g file) bool {
			if f.info != nil && g.info != nil {
				return os.SameFile(f.info, g.info)
			}
			return f.info == nil && g.info == nil && f.abs == g.abs
		})
		if i >= 0 {
			errs = append(errs, fmt.Errorf("%s: given twice (also as %s; expected each experiment file once)", p, seen[i].path))
			continue
		}
		seen = append(seen, f)
	}
	return errors.Join(errs...)
}

// UniqueNames checks that experiments loaded from different files have
// different names (the variants of one file share theirs).
func UniqueNames(exps []*Experiment) error {
	var errs []error
	seen := map[string]string{}
	reported := map[string]bool{}
	for _, e := range exps {
		other, dup := seen[e.Name]
		switch {
		case !dup:
			seen[e.Name] = e.File
		case other != e.File && !reported[e.File]:
			reported[e.File] = true
			d := &decoder{src: e.src}
			d.fail("", "name", "experiment name %q is also used by %s (expected unique names)", e.Name, other)
			errs = append(errs, d.errs...)
		}
	}
	return errors.Join(errs...)
}
