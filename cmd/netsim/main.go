// Command netsim runs interconnection-network simulation experiments
// described by TOML files and prints their results.
//
// Usage:
//
//	netsim run [FILE.toml ...] [-o DIR] [-j N] [--json]
//	netsim topo describe FILE.toml [--json]
//	netsim topo export FILE.toml [-o OUT.dot] [--routes]
//	netsim check FILE.toml ... [-j N]
//	netsim version
//	netsim help [COMMAND]
//
// Exit status: 0 on success, 1 when a simulation point failed (for
// example a deadlock), results could not be written or netsim check found
// a channel dependency cycle, 2 on bad input
// (usage, experiment files) before anything runs.
package main

import (
	"context"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
