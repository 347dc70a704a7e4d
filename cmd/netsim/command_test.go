package main

import (
	"flag"
	"os"
	"strings"
	"testing"
)

// helpOf returns the help of the command at path below netsim ("check",
// "topo describe"), as netsim help prints it.
func helpOf(path string) string {
	c := netsimCmd()
	for _, name := range strings.Fields(path) {
		c = c.lookup(name)
	}
	return c.help()
}

// allCommands returns every command below c, depth first, with its path
// below netsim ("run", "topo", "topo describe").
func allCommands(c *Command, prefix string) (cmds []*Command, paths []string) {
	for _, sub := range c.Commands {
		path := strings.TrimSpace(prefix + " " + sub.Name)
		cmds, paths = append(cmds, sub), append(paths, path)
		more, morePaths := allCommands(sub, path)
		cmds, paths = append(cmds, more...), append(paths, morePaths...)
	}
	return cmds, paths
}

// TestEveryCommand checks every command and subcommand: its fields are
// filled in, netsim help and -h print its help, and the overview of
// netsim help (also printed with no command) lists it.
func TestEveryCommand(t *testing.T) {
	root := netsimCmd()
	_, overview, _ := netsim(t, "help")
	_, _, bare := netsim(t)
	if overview != root.help() || bare != overview {
		t.Errorf("netsim help and netsim alone do not print the root's help:\n%s", overview)
	}
	doc, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	cmds, paths := allCommands(root, "")
	for i, c := range cmds {
		path := paths[i]
		t.Run(path, func(t *testing.T) {
			if c.UsageLine == "" || c.Short == "" || c.Long == "" {
				t.Fatalf("UsageLine %q, Short %q, Long %q: want all three", c.UsageLine, c.Short, c.Long)
			}
			for _, line := range strings.Split(c.UsageLine, "\n") {
				if !strings.HasPrefix(line+" ", "netsim "+path+" ") {
					t.Errorf("usage line %q does not start with netsim %s", line, path)
				}
			}
			if c.LongName() != "netsim "+path {
				t.Errorf("LongName %q, want netsim %s", c.LongName(), path)
			}
			if strings.HasSuffix(c.Short, ".") || strings.Contains(c.Short, "\n") {
				t.Errorf("Short %q: want one phrase without a final period", c.Short)
			}
			if !strings.HasSuffix(c.Long, "\n") || strings.HasSuffix(c.Long, "\n\n") {
				t.Errorf("Long does not end with one newline: %q", c.Long)
			}
			if (c.Run == nil) == (len(c.Commands) == 0) {
				t.Errorf("Run set %v with %d subcommands: want exactly one of them", c.Run != nil, len(c.Commands))
			}

			args := append([]string{"help"}, strings.Fields(path)...)
			code, out, errs := netsim(t, args...)
			if code != exitOK || errs != "" || out != c.help() {
				t.Errorf("netsim %s: exit %d, stderr %q, stdout\n%s\nwant its help\n%s", strings.Join(args, " "), code, errs, out, c.help())
			}
			if !strings.HasPrefix(out, c.UsageLine+"\n\n"+c.Long) {
				t.Errorf("help does not start with the usage line and Long:\n%s", out)
			}
			if !c.CustomFlags {
				args := append(strings.Fields(path), "-h")
				if code, out, errs := netsim(t, args...); code != exitOK || errs != "" || out != c.help() {
					t.Errorf("netsim %s: exit %d, stderr %q, stdout\n%s", strings.Join(args, " "), code, errs, out)
				}
			}

			if len(c.Commands) > 0 {
				return
			}
			// The lists show a command with subcommands by its subcommands.
			entry := "  " + c.firstUsage() + "\n        " + strings.Fields(c.Short)[0]
			if !strings.Contains(overview, entry) {
				t.Errorf("the overview of netsim help lacks %q", entry)
			}
			if !strings.Contains(string(doc), "//\t"+c.firstUsage()+"\n") {
				t.Errorf("the package documentation in main.go lacks %q", c.firstUsage())
			}
			c.flagSet().VisitAll(func(f *flag.Flag) {
				name, _ := flag.UnquoteUsage(f)
				if _, isBool := f.Value.(interface{ IsBoolFlag() bool }); !isBool && strings.Contains(" string int value ", " "+name+" ") {
					t.Errorf("flag %s: the usage names no value in back quotes: %q", f.Name, f.Usage)
				}
				if !strings.Contains(c.UsageLine, flagName(f.Name)) {
					t.Errorf("flag %s is not in the usage line %q", flagName(f.Name), c.UsageLine)
				}
				label := "\n  " + flagName(f.Name)
				if name != "" {
					label += " " + name
				}
				if !strings.Contains(out, label+"  ") {
					t.Errorf("help does not list %q", label[1:])
				}
			})
		})
	}
	if len(cmds) < 14 {
		t.Errorf("%d commands: %v", len(cmds), paths)
	}
}

// TestHelpTopics: netsim help walks down the subcommands named, stops
// at a word that names none below netsim, and rejects it at the top.
func TestHelpTopics(t *testing.T) {
	runCLICases(t, []cliCase{
		{"help help", []string{"help", "help"}, exitOK, helpOf("help"), ""},
		{"help topo describe", []string{"help", "topo", "describe"}, exitOK, helpOf("topo describe"), ""},
		{"help topo fly", []string{"help", "topo", "fly"}, exitOK, helpOf("topo"), ""},
		{"help run x", []string{"help", "run", "x"}, exitOK, helpOf("run"), ""},
		{"topo help", []string{"topo", "help"}, exitOK, helpOf("topo"), ""},
		{"topo help recover", []string{"topo", "help", "recover"}, exitOK, helpOf("topo recover"), ""},
		{"topo -h", []string{"topo", "-h"}, exitOK, helpOf("topo"), ""},
		{"help -h", []string{"help", "-h"}, exitOK, netsimCmd().help(), ""},
		{"version -h", []string{"version", "-h"}, exitOK, helpOf("version"), ""},
		{"topo draw", []string{"topo", "draw"}, exitUsage, "", "netsim topo: unknown subcommand \"draw\"\n\n" + helpOf("topo")},
		{"fly", []string{"fly"}, exitUsage, "", "netsim: unknown command \"fly\"\n\n" + netsimCmd().help()},
	})
}

// TestHelpLayout checks the layout of the generated help on netsim plot:
// its flags sorted and aligned, their usage wrapped beside them, a
// default that is not the zero value given.
func TestHelpLayout(t *testing.T) {
	want := `
Flags:

  --by routing|pattern  one line per routing|pattern: per routing, the charts
                        above; per pattern, one chart per topology and routing
                        instead (throughput-TOPOLOGY-ROUTING, latency-...)
                        (default: routing)
  -o DIR                write the charts to DIR (required)
`
	if h := helpOf("plot"); !strings.HasSuffix(h, want) {
		t.Errorf("help of plot ends\n%s\nwant\n%s", h[strings.LastIndex(h, "\nFlags:"):], want)
	}
	for _, line := range strings.Split(netsimCmd().help(), "\n") {
		if n := len([]rune(line)); n > helpWidth && !strings.HasPrefix(line, "  netsim ") && !strings.HasPrefix(line, "netsim ") {
			t.Errorf("line of %d columns in netsim help: %q", n, line)
		}
	}
}
