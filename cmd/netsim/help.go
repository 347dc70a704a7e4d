package main

import (
	"context"
	"fmt"
)

// helpCmd returns netsim help.
func helpCmd() *Command {
	return &Command{
		Name:      "help",
		UsageLine: "netsim help [COMMAND]",
		Short:     "print this help, or the help of COMMAND",
		Long: `Prints the help of COMMAND: what it does, its flags and its exit status.
The help of a command with subcommands (topo) lists them and is followed
by theirs; one may be named after it (netsim help topo describe). Without
COMMAND (or with -h), prints the list of every command and netsim's exit
statuses.
`,
		CustomFlags: true,
		Run: func(_ context.Context, _ *Command, ev env, args []string) int {
			if isHelpFlag(args) {
				args = nil
			}
			return netsimCmd().helpTopic(ev, args)
		},
	}
}

// helpTopic prints on stdout the help of the command that words name
// below c, a word per level ("topo", "describe"). The walk stops at a
// word that names no subcommand: at the root, that is an unknown help
// topic (exit status 2); below it, the help of the command reached is
// printed.
func (c *Command) helpTopic(ev env, words []string) int {
	cur := c
	for _, w := range words {
		sub := cur.lookup(w)
		if sub == nil {
			if cur.isRoot() {
				fmt.Fprintf(ev.stderr, "%s: unknown help topic %q\n\n%s", cur.LongName(), w, cur.help())
				return exitUsage
			}
			break
		}
		cur = sub
	}
	fmt.Fprint(ev.stdout, cur.help())
	return exitOK
}
