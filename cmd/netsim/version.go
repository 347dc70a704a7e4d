package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
)

// version is netsim's release version.
const version = "0.1.0"

// versionCmd returns netsim version. It takes no argument but -h (its
// help, as every command's).
func versionCmd() *Command {
	return &Command{
		Name:      "version",
		UsageLine: "netsim version",
		Short:     "print the version",
		Long: `Prints netsim's version, the Go version it was built with and, when known,
the module version and VCS revision.
`,
		CustomFlags: true,
		Run: func(_ context.Context, cmd *Command, ev env, args []string) int {
			if isHelpFlag(args) {
				fmt.Fprint(ev.stdout, cmd.help())
				return exitOK
			}
			if len(args) > 0 {
				fmt.Fprintf(ev.stderr, "netsim: version takes no arguments, got %q\n", args)
				return exitUsage
			}
			fmt.Fprintln(ev.stdout, versionString())
			return exitOK
		},
	}
}

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
