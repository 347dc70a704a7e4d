package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// version is netsim's release version.
const version = "0.1.0"

// versionString returns the version line: the release, the Go version and
// what the build information adds (module version, VCS revision).
func versionString() string {
	s := fmt.Sprintf("netsim %s (%s", version, runtime.Version())
	if info, ok := debug.ReadBuildInfo(); ok {
		if v := info.Main.Version; v != "" && v != "(devel)" {
			s += ", module " + v
		}
		for _, kv := range info.Settings {
			switch kv.Key {
			case "vcs.revision":
				s += ", revision " + kv.Value
			case "vcs.modified":
				if kv.Value == "true" {
					s += ", modified"
				}
			}
		}
	}
	return s + ")"
}
