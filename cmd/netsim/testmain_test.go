package main

import (
	"context"
	"os"
	"testing"
)

// TestMain lets the tests' binary stand for netsim in the child processes
// netsim bench starts (childEnv set): it then runs the command line it was
// given, as netsim's main does.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
