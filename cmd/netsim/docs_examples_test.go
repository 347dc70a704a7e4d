package main

import (
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// shownCommand is a command a page shows in a code block and the output
// it shows after it.
type shownCommand struct {
	line  int      // line of the command on the page, from 1
	args  []string // arguments after the command's name
	shown string   // the lines shown after it, up to the next command or the end of the block
}

// shownCommands returns the commands of the fenced code blocks of text
// that start with prefix, with or without a "$ " prompt, and what the
// page shows after each. A comment after the command (" # ...") is not
// an argument.
func shownCommands(text, prefix string) []shownCommand {
	var cmds []shownCommand
	fenced := false
	var cur *shownCommand
	end := func() {
		if cur != nil {
			cmds = append(cmds, *cur)
			cur = nil
		}
	}
	for i, line := range strings.SplitAfter(text, "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			end()
			fenced = !fenced
		case !fenced:
		case strings.HasPrefix(line, prefix) || strings.HasPrefix(line, "$ "+prefix):
			end()
			cmd := strings.TrimPrefix(strings.TrimPrefix(line, "$ "), prefix)
			if j := strings.Index(cmd, " #"); j >= 0 {
				cmd = cmd[:j]
			}
			cur = &shownCommand{line: i + 1, args: strings.Fields(cmd)}
		case strings.HasPrefix(line, "$ "):
			end()
		case cur != nil:
			cur.shown += line
		}
	}
	return cmds
}

// matchShown reports how got differs from shown, the output a page shows:
// a line "..." (indented or not) stands for lines left out, anywhere; the
// other lines must be got's, in order, the first ones at its start and
// the last ones at its end unless "..." comes before or after them. got's
// leading empty lines are not shown.
func matchShown(got, shown string) error {
	lines := strings.Split(strings.TrimRight(strings.TrimLeft(got, "\n"), "\n"), "\n")
	chunks := [][]string{{}}
	for _, l := range strings.Split(strings.TrimRight(shown, "\n"), "\n") {
		if strings.TrimSpace(l) == "..." {
			chunks = append(chunks, []string{})
			continue
		}
		chunks[len(chunks)-1] = append(chunks[len(chunks)-1], l)
	}
	missing := func(c []string) error {
		return fmt.Errorf("these lines are not in the output where shown:\n%s", strings.Join(c, "\n"))
	}
	head, tail := chunks[0], chunks[len(chunks)-1]
	if len(chunks) == 1 {
		if !slices.Equal(lines, head) {
			return missing(head)
		}
		return nil
	}
	if len(head) > len(lines) || !slices.Equal(lines[:len(head)], head) {
		return missing(head)
	}
	limit := len(lines) - len(tail)
	if limit < len(head) || !slices.Equal(lines[limit:], tail) {
		return missing(tail)
	}
	at := len(head) // the first line of got not yet matched
	for _, c := range chunks[1 : len(chunks)-1] {
		found := -1
		for j := at; j+len(c) <= limit; j++ {
			if slices.Equal(lines[j:j+len(c)], c) {
				found = j
				break
			}
		}
		if found < 0 {
			return missing(c)
		}
		at = found + len(c)
	}
	return nil
}

// TestMatchShown checks how a page's excerpts of an output are matched.
func TestMatchShown(t *testing.T) {
	const got = "\na\nb\nc\nd\n"
	for _, tc := range []struct {
		shown string
		ok    bool
	}{
		{"a\nb\nc\nd\n", true},
		{"a\nb\n...\n", true},
		{"a\n...\nd\n", true},
		{"a\n  ...\nc\n...\n", true},
		{"...\nc\nd\n", true},
		{"a\nb\nc\n", false},   // the end is left out without "..."
		{"b\nc\nd\n", false},   // so is the start
		{"a\n...\nc\n", false}, // d follows c
		{"a\nc\n...\n", false},
		{"a\n...\nb\n...\nb\n", false},
	} {
		if err := matchShown(got, tc.shown); (err == nil) != tc.ok {
			t.Errorf("matchShown(%q, %q) = %v, want ok %v", got, tc.shown, err, tc.ok)
		}
	}
}

// docImages are the images of docs/cli.md drawn by its examples: the
// committed file and the one an example writes, under the temporary
// folder that stands for the example's -o directory.
var docImages = map[string]string{
	"docs/congestion-ff4x4-bisect.png": "out/hist_acc_band-bisect.png",
}

// TestCLIGuideExamples runs every `go run ./cmd/netsim` command of
// docs/cli.md from the repository's root, as the page shows it, and
// checks the output the page shows after it (-o directories and files
// go to a temporary folder). The images the examples draw must be the
// committed ones, pixel for pixel.
func TestCLIGuideExamples(t *testing.T) {
	cmds := shownCommands(readRepo(t, "docs/cli.md"), "go run ./cmd/netsim ")
	if len(cmds) < 10 {
		t.Fatalf("docs/cli.md: %d commands go run ./cmd/netsim, want at least 10", len(cmds))
	}
	tmp := t.TempDir()
	t.Chdir(repoRoot)
	for _, c := range cmds {
		t.Run(fmt.Sprintf("line%d", c.line), func(t *testing.T) {
			args := append([]string(nil), c.args...)
			for i := range args {
				if i > 0 && args[i-1] == "-o" {
					args[i] = filepath.Join(tmp, args[i])
				}
			}
			code, out, errs := netsim(t, args...)
			if code != exitOK {
				t.Fatalf("docs/cli.md:%d: netsim %s: exit %d, %s", c.line, strings.Join(c.args, " "), code, errs)
			}
			if c.shown == "" {
				return
			}
			if err := matchShown(out, c.shown); err != nil {
				t.Errorf("docs/cli.md:%d: netsim %s: %v\nnetsim prints\n%s", c.line, strings.Join(c.args, " "), err, out)
			}
		})
	}
	for committed, drawn := range docImages {
		if d := imageDiff(t, committed, filepath.Join(tmp, drawn)); d != "" {
			t.Errorf("%s is not the image docs/cli.md's example draws (%s): %s", committed, drawn, d)
		}
	}
}

// imageDiff says how the images of two PNG files differ, "" when their
// pixels are the same.
func imageDiff(t *testing.T, a, b string) string {
	t.Helper()
	decode := func(path string) image.Image {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		img, err := png.Decode(f)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return img
	}
	ia, ib := decode(a), decode(b)
	if ia.Bounds() != ib.Bounds() {
		return fmt.Sprintf("bounds %v and %v", ia.Bounds(), ib.Bounds())
	}
	r := ia.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, a1 := ia.At(x, y).RGBA()
			r2, g2, b2, a2 := ib.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				return fmt.Sprintf("pixel (%d, %d) differs", x, y)
			}
		}
	}
	return ""
}

// TestCLIGuideResume reproduces the interruption of docs/cli.md's
// walk-through: the sweep is stopped after guideInterruptAfter points
// (one at a time, so always the same ones), and the page shows what
// netsim then prints on stderr: the interruption, the --dry-run list and
// the resume; the resumed run's table is the uninterrupted one's. The
// runs are quiet (-q): on a loaded machine a run may last long enough to
// print a progress line, which -q silences, and nothing else.
func TestCLIGuideResume(t *testing.T) {
	const guideInterruptAfter = 14
	// shown lists what the page shows after each occurrence of the
	// command netsim cmd.
	cli := readRepo(t, "docs/cli.md")
	shown := func(cmd string) []string {
		var s []string
		for _, c := range shownCommands(cli, "netsim ") {
			if strings.Join(c.args, " ") == cmd {
				s = append(s, c.shown)
			}
		}
		if len(s) == 0 {
			t.Fatalf("docs/cli.md: no command netsim %s", cmd)
		}
		return s
	}
	dir := t.TempDir()
	for _, f := range []string{"ff4x4-sweep.toml", "ff4x4-hw.toml"} {
		writeFile(t, dir, f, readRepo(t, "experiments/testdata/"+f))
	}
	t.Chdir(dir)

	// The page shows the run twice: interrupted, then resumed.
	runs := shown("run ff4x4-sweep.toml -o out")
	if len(runs) != 2 {
		t.Fatalf("docs/cli.md shows netsim run ff4x4-sweep.toml -o out %d times, want 2 (interrupted, resumed)", len(runs))
	}
	ctx, cancel := context.WithCancel(context.Background())
	in := &interrupter{k: guideInterruptAfter, cancel: cancel}
	code, _, errs := netsimEnv(t, ctx, in.run, "run", "-q", "ff4x4-sweep.toml", "-o", "out", "-j", "1")
	cancel()
	if want := strings.TrimPrefix(runs[0], "^C"); code != exitFailed || errs != want {
		t.Errorf("interrupted run: exit %d; docs/cli.md shows\n%s\nnetsim prints\n%s", code, want, errs)
	}
	_, out, _ := netsim(t, "run", "--dry-run", "-o", "out", "ff4x4-sweep.toml")
	if err := matchShown(out, shown("run --dry-run -o out ff4x4-sweep.toml")[0]); err != nil {
		t.Errorf("--dry-run after the interruption: %v\nnetsim prints\n%s", err, out)
	}
	code, _, errs = netsim(t, "run", "-q", "ff4x4-sweep.toml", "-o", "out")
	if code != exitOK || errs != runs[1] {
		t.Errorf("resumed run: exit %d; docs/cli.md shows\n%s\nnetsim prints\n%s", code, runs[1], errs)
	}
	_, table, _ := netsim(t, "table", "out/results.jsonl")
	if want := shown("table out/results.jsonl")[0]; table != want {
		t.Errorf("table of the resumed run: docs/cli.md shows\n%s\nnetsim prints\n%s", want, table)
	}
}

// TestCLIGuideSynopsis checks that the command lines the walk-through of
// docs/cli.md gives as synopses (the lines of its plain code blocks that
// start with "netsim ") are the usage lines of the commands' help.
func TestCLIGuideSynopsis(t *testing.T) {
	cli := readRepo(t, "docs/cli.md")
	guide, _, _ := strings.Cut(cli, "<!-- generated from the Command values")
	usage := map[string]bool{}
	for _, l := range strings.Split(cliReference(), "\n") {
		usage[l] = true
	}
	n := 0
	for _, block := range codeBlocks(guide, "") {
		for _, l := range strings.Split(block, "\n") {
			if !strings.HasPrefix(l, "netsim ") {
				continue
			}
			n++
			if !usage[l] {
				t.Errorf("docs/cli.md shows the synopsis %q, which no command's help gives", l)
			}
		}
	}
	if n < 13 {
		t.Errorf("docs/cli.md: %d synopsis lines, want at least the 13 of its first block", n)
	}
}
