package main

import "path/filepath"

// studiesDir is the folder of the seed reproductions, studies/ at the
// root of the repository, from this package's folder (where go test runs
// its tests).
const studiesDir = "../../studies"

// studyPath returns the path of a file or glob pattern of studiesDir:
// studyPath("seed001", "scaled", "*.toml").
func studyPath(elem ...string) string {
	return filepath.Join(append([]string{studiesDir}, elem...)...)
}
