package main

import (
	"flag"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Help layout.
const (
	helpWidth   = 80 // columns of the wrapped text of the help
	shortIndent = 8  // indent of a Short under its usage line in a list
)

// help returns the help of c. For the root, netsim help: its Short, the
// list of every command (subcommands in place of a command that has them),
// its Long and the help of its first command, netsim run. For a command
// with subcommands: its usage line, its Long, the list of its subcommands
// and the help of each. For any other: its usage line, its Long and its
// flags with their values and defaults.
func (c *Command) help() string {
	var b strings.Builder
	switch {
	case c.isRoot():
		b.WriteString(c.Short + "\n\nUsage:\n\n")
		writeList(&b, c.Commands)
		b.WriteString("\nRun \"netsim help COMMAND\" or \"netsim COMMAND -h\" for a command's flags\nand details.\n\n" + c.Long)
	case len(c.Commands) > 0:
		b.WriteString(c.UsageLine + "\n\n" + c.Long + "\n")
		writeList(&b, c.Commands)
		name := c.LongName()
		fmt.Fprintf(&b, "\nRun \"netsim help %s\" or \"%s SUBCOMMAND -h\" for details.\n", strings.TrimPrefix(name, "netsim "), name)
		for _, sub := range c.Commands {
			b.WriteString("\n" + sub.help())
		}
	default:
		b.WriteString(c.UsageLine + "\n\n" + c.Long)
		if fl := flagList(c.flagSet()); fl != "" {
			b.WriteString("\nFlags:\n\n" + fl)
		}
	}
	return b.String()
}

// writeList writes the usage line and Short of every command, or of its
// subcommands when it has some, as the lists of netsim help show them.
func writeList(b *strings.Builder, cmds []*Command) {
	for _, c := range cmds {
		if len(c.Commands) > 0 {
			writeList(b, c.Commands)
			continue
		}
		b.WriteString("  " + c.firstUsage() + "\n")
		indent := strings.Repeat(" ", shortIndent)
		for _, line := range wrap(c.Short, helpWidth-shortIndent) {
			b.WriteString(indent + line + "\n")
		}
	}
}

// flagList lists the flags of fs in the order of flag.VisitAll, one entry
// each: the flag (-o for a one-letter name, --json for a longer one) and
// the back-quoted name of its value in its usage, then, aligned, its
// usage and its default when that is not the zero value, wrapped.
func flagList(fs *flag.FlagSet) string {
	type entry struct{ label, text string }
	var entries []entry
	width := 0
	fs.VisitAll(func(f *flag.Flag) {
		value, usage := flag.UnquoteUsage(f)
		label := flagName(f.Name)
		if value != "" {
			label += " " + value
		}
		switch f.DefValue {
		case "", "0", "false":
		default:
			usage += fmt.Sprintf(" (default: %s)", f.DefValue)
		}
		entries = append(entries, entry{label, usage})
		width = max(width, utf8.RuneCountInString(label))
	})
	var b strings.Builder
	indent := 2 + width + 2
	for _, e := range entries {
		for i, line := range wrap(e.text, helpWidth-indent) {
			if i == 0 {
				fmt.Fprintf(&b, "  %-*s  %s\n", width, e.label, line)
			} else {
				b.WriteString(strings.Repeat(" ", indent) + line + "\n")
			}
		}
	}
	return b.String()
}

// wrap breaks text at spaces into lines of at most width columns (one per
// rune); a longer word gets a line of its own.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		switch {
		case line == "":
			line = w
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) <= width:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
