package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
)

// A Command is one netsim command, such as netsim run, or one subcommand
// of a command that has them, such as netsim topo describe. Its help, the
// lists of commands and the handling of -h are made from its fields.
//
// The commands are built afresh for every command line (see commands), so
// the variables that Flags binds belong to one run.
type Command struct {
	// Name is the word that selects the command after its parent's name:
	// "run", "describe".
	Name string
	// UsageLine is the synopsis, starting with the full name ("netsim topo
	// describe ..."). A command used in several ways has one line per way;
	// the lists of commands show the first.
	UsageLine string
	// Short describes the command in the lists of commands: a phrase,
	// lower case, without a final period. That of the root is the first
	// sentence of netsim help.
	Short string
	// Long is the help text printed after the usage line, ending with a
	// newline.
	Long string
	// Flags defines the command's flags on fs, bound to the variables Run
	// reads; nil for a command without flags (it still takes -h). The
	// flags are parsed before Run and listed in the help, each usage
	// naming its value in back quotes, as flag.PrintDefaults expects.
	Flags func(fs *flag.FlagSet)
	// CustomFlags tells that Run parses its arguments itself: they are
	// passed as given, and -h is Run's to handle.
	CustomFlags bool
	// WatchesContext tells that Run ends soon after its context does (a
	// signal), with its own message; the Run of other commands is left
	// to finish in the background when a signal comes, and the command
	// ends at once with the interrupted message (untilSignal).
	WatchesContext bool
	// Run runs the command with the arguments left after its flags (all of
	// them with CustomFlags) and returns the exit status. It is nil for a
	// command that only dispatches to its Commands.
	Run func(ctx context.Context, cmd *Command, ev env, args []string) int
	// Commands are the subcommands, in the order of the help.
	Commands []*Command

	flags *flag.FlagSet // made from Flags on first use
}

// LongName returns the command's full name, as in its usage line:
// "netsim", "netsim run", "netsim topo describe".
func (c *Command) LongName() string {
	words := strings.Fields(c.firstUsage())
	for i, w := range words {
		if w == c.Name {
			return strings.Join(words[:i+1], " ")
		}
	}
	return c.Name
}

// firstUsage returns the first line of the usage line.
func (c *Command) firstUsage() string {
	line, _, _ := strings.Cut(c.UsageLine, "\n")
	return line
}

// lookup returns the subcommand called name, or nil.
func (c *Command) lookup(name string) *Command {
	for _, sub := range c.Commands {
		if sub.Name == name {
			return sub
		}
	}
	return nil
}

// isRoot reports whether c is netsim itself, not one of its commands.
func (c *Command) isRoot() bool { return c.LongName() == c.Name }

// flagSet returns the command's flags, defined by Flags the first time.
// Messages name the command by its full name; the flag package prints
// nothing, netsim does.
func (c *Command) flagSet() *flag.FlagSet {
	if c.flags == nil {
		c.flags = flag.NewFlagSet(c.LongName(), flag.ContinueOnError)
		c.flags.SetOutput(io.Discard)
		if c.Flags != nil {
			c.Flags(c.flags)
		}
	}
	return c.flags
}

// dispatch runs c with the command line args that follow its name and
// returns the exit status: a command that has subcommands hands args to
// the one named first (or prints its help for help, -h, -help and
// --help); any other parses its flags and runs.
func (c *Command) dispatch(ctx context.Context, ev env, args []string) int {
	if c.Run == nil {
		return c.dispatchSub(ctx, ev, args)
	}
	if !c.CustomFlags {
		var err error
		args, err = parseArgs(c.flagSet(), args)
		if code, done := flagsDone(err, c.LongName(), c.help(), ev.stdout, ev.stderr); done {
			return code
		}
	}
	if c.WatchesContext {
		return c.Run(ctx, c, ev, args)
	}
	return untilSignal(ctx, ev, c.LongName(), func() int { return c.Run(ctx, c, ev, args) })
}

// dispatchSub is dispatch for a command with subcommands.
func (c *Command) dispatchSub(ctx context.Context, ev env, args []string) int {
	what := "subcommand"
	if c.isRoot() {
		what = "command"
	}
	if len(args) == 0 {
		if c.isRoot() {
			fmt.Fprint(ev.stderr, c.help())
		} else {
			fmt.Fprintf(ev.stderr, "%s: missing %s\n\n%s", c.LongName(), what, c.help())
		}
		return exitUsage
	}
	if sub := c.lookup(args[0]); sub != nil {
		return sub.dispatch(ctx, ev, args[1:])
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		return c.helpTopic(ev, args[1:])
	}
	fmt.Fprintf(ev.stderr, "%s: unknown %s %q\n\n%s", c.LongName(), what, args[0], c.help())
	return exitUsage
}

// usageError reports err, a problem with the command line found by Run,
// as a flag error is: "netsim CMD: err", a blank line and the help on
// stderr. It returns exitUsage.
func (c *Command) usageError(ev env, err error) int {
	fmt.Fprintf(ev.stderr, "%s: %v\n\n%s", c.LongName(), err, c.help())
	return exitUsage
}
