package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update", false, "rewrite the generated reference of docs/cli.md")

// repoRoot is the repository's root from this package's directory.
const repoRoot = "../.."

// readRepo reads a file of the repository.
func readRepo(t *testing.T, name string) string {
	t.Helper()
	return readFile(t, filepath.Join(repoRoot, name))
}

// codeBlocks returns the fenced code blocks of markdown text whose info
// string is lang ("" for a bare ```), in order.
func codeBlocks(text, lang string) []string {
	var blocks []string
	var cur *strings.Builder
	keep := false
	for _, line := range strings.SplitAfter(text, "\n") {
		fence := strings.HasPrefix(line, "```")
		switch {
		case cur == nil && fence:
			cur, keep = &strings.Builder{}, strings.TrimSpace(line[3:]) == lang
		case cur != nil && fence:
			if keep {
				blocks = append(blocks, cur.String())
			}
			cur = nil
		case cur != nil:
			cur.WriteString(line)
		}
	}
	return blocks
}

// TestReadmeFirstExperiment runs the README's first experiment as the
// README shows it: its TOML is the committed docs/example/dragonfly.toml,
// netsim run writes the charts it names, and netsim table prints the
// table it shows, byte for byte.
func TestReadmeFirstExperiment(t *testing.T) {
	readme := readRepo(t, "README.md")
	if len(readme) > 12*1024 {
		t.Errorf("README.md has %d bytes, more than the 12 KB of a first page", len(readme))
	}
	const example = "docs/example/dragonfly.toml"
	tomls := codeBlocks(readme, "toml")
	if len(tomls) != 1 || tomls[0] != readRepo(t, example) {
		t.Fatalf("README.md's TOML block is not %s", example)
	}
	if !strings.Contains(readme, "netsim run "+example+" -o out/dragonfly\nnetsim table out/dragonfly/results.jsonl\n") {
		t.Errorf("README.md does not show the commands this test runs")
	}
	dir := t.TempDir()
	if code, _, errs := netsim(t, "run", "-q", filepath.Join(repoRoot, example), "-o", dir); code != exitOK {
		t.Fatalf("run: exit %d, %s", code, errs)
	}
	code, table, errs := netsim(t, "table", filepath.Join(dir, "results.jsonl"))
	if code != exitOK {
		t.Fatalf("table: exit %d, %s", code, errs)
	}
	outputs := codeBlocks(readme, "")
	if len(outputs) != 1 || outputs[0] != table {
		t.Errorf("README.md shows\n%v\nnetsim table prints\n%s", outputs, table)
	}
	for _, glob := range []string{"throughput-*-complement.png", "latency-*-uniform.png", "saturation-*.png", "table.md", "table.csv"} {
		if m, _ := filepath.Glob(filepath.Join(dir, glob)); len(m) == 0 {
			t.Errorf("netsim run -o wrote no %s, which README.md names", glob)
		}
	}
	// docs/cli.md shows the same table and two of the charts.
	if cli := readRepo(t, "docs/cli.md"); !strings.Contains(cli, "$ netsim table out/dragonfly/results.jsonl\n"+table+"```\n") {
		t.Errorf("docs/cli.md does not show the table netsim table prints for %s", example)
	}
	for chart, committed := range map[string]string{
		"throughput-dragonfly_k4_g2_c2_absolute_omit-complement.svg": "docs/example/dragonfly-throughput-complement.svg",
		"saturation-dragonfly_k4_g2_c2_absolute_omit.svg":            "docs/example/dragonfly-saturation.svg",
	} {
		b, err := os.ReadFile(filepath.Join(dir, chart))
		if err != nil || string(b) != readRepo(t, committed) {
			t.Errorf("%s is not the %s netsim run draws (%v): copy it from a run", committed, chart, err)
		}
	}
}

// TestCLIGuideSweep runs the sweep of docs/cli.md's walk-through in a
// folder holding its files, as the page shows it, and checks what the
// page shows it print: validate's line, the table after the run, the
// charts, and the merges of two shards.
func TestCLIGuideSweep(t *testing.T) {
	cli := readRepo(t, "docs/cli.md")
	// The walk-through's commands have a "$ " prompt, and some of its
	// output lines start with "netsim": the prompt tells them apart (the
	// prefix "$ " keeps the program's name in args).
	shown := map[string]string{} // by the command, without its comment
	for _, c := range shownCommands(cli, "$ ") {
		shown[strings.Join(c.args, " ")] = c.shown
	}
	shownAfter := func(cmd string) string {
		t.Helper()
		out, ok := shown[cmd]
		if !ok {
			t.Fatalf("docs/cli.md: no command %q", cmd)
		}
		return out
	}
	dir := t.TempDir()
	for _, f := range []string{"ff4x4-sweep.toml", "ff4x4-hw.toml"} {
		writeFile(t, dir, f, readRepo(t, "experiments/testdata/"+f))
	}
	t.Chdir(dir)
	check := func(what, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s: docs/cli.md shows\n%s\nnetsim prints\n%s", what, want, got)
		}
	}
	_, out, _ := netsim(t, "validate", "ff4x4-sweep.toml")
	check("validate", out, shownAfter("netsim validate ff4x4-sweep.toml"))
	if code, _, errs := netsim(t, "run", "-q", "ff4x4-sweep.toml", "-o", "out"); code != exitOK {
		t.Fatalf("run: exit %d, %s", code, errs)
	}
	_, table, _ := netsim(t, "table", "out/results.jsonl")
	check("table", table, shownAfter("netsim table out/results.jsonl"))
	pngs, _ := filepath.Glob("out/*.png")
	check("charts", strings.Join(pngs, "\n")+"\n", shownAfter("ls out/*.png"))
	for _, shard := range []string{"0", "1"} {
		if code, _, errs := netsim(t, "run", "-q", "--shard", shard+"/2", "-o", "s"+shard, "ff4x4-sweep.toml"); code != exitOK {
			t.Fatalf("shard %s: exit %d, %s", shard, code, errs)
		}
	}
	_, _, errs := netsim(t, "merge", "s0/results.jsonl", "s1/results.jsonl", "--check", "ff4x4-sweep.toml", "-o", "all.jsonl")
	check("merge", errs, shownAfter("netsim merge s0/results.jsonl s1/results.jsonl --check ff4x4-sweep.toml -o all.jsonl"))
	_, _, errs = netsim(t, "merge", "s0/results.jsonl", "--check", "ff4x4-sweep.toml", "-o", "part.jsonl")
	want := strings.TrimSuffix(shownAfter("netsim merge s0/results.jsonl --check ff4x4-sweep.toml -o part.jsonl"), "...\n")
	if !strings.HasPrefix(errs, want) {
		t.Errorf("merge of one shard: docs/cli.md shows\n%s\nnetsim prints\n%s", want, errs)
	}
	all, err := os.ReadFile("all.jsonl")
	if err != nil || string(all) != readFile(t, "out/results.jsonl") {
		t.Errorf("the merged shards are not the unsharded run's results.jsonl (%v)", err)
	}
}

// TestReadmeTestCommand checks that the test command the README gives is
// the one CI runs.
func TestReadmeTestCommand(t *testing.T) {
	const cmd = "go test ./... -count=1 -timeout 30m"
	if !strings.Contains(readRepo(t, "README.md"), "\n"+cmd+"\n") {
		t.Errorf("README.md does not give the test command %q", cmd)
	}
	if !strings.Contains(readRepo(t, ".ci/run"), "\n"+cmd+"\n") {
		t.Errorf(".ci/run does not run %q", cmd)
	}
}

// TestDocLinks checks that every relative link of README.md, docs/ and
// studies/ names a file or folder of the repository.
func TestDocLinks(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	more, _ := filepath.Glob(filepath.Join(repoRoot, "studies", "*", "README.md"))
	files = append(append(files, more...), filepath.Join(repoRoot, "README.md"), filepath.Join(repoRoot, "studies", "README.md"))
	link := regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(f), target)); err != nil {
				t.Errorf("%s: link %s: %v", f, target, err)
			}
		}
	}
}

// cliReference renders the help of every command and subcommand, as
// netsim help prints it, in markdown.
func cliReference() string {
	var b strings.Builder
	b.WriteString("### netsim\n\n```text\n" + netsimCmd().help() + "```\n")
	var walk func(cs []*Command)
	walk = func(cs []*Command) {
		for _, c := range cs {
			b.WriteString("\n### " + c.LongName() + "\n\n```text\n" + c.help() + "```\n")
			walk(c.Commands)
		}
	}
	walk(netsimCmd().Commands)
	return b.String()
}

// TestCLIReference checks that the reference at the end of docs/cli.md is
// the help the commands print (-update rewrites it).
func TestCLIReference(t *testing.T) {
	const begin, end = "<!-- generated from the Command values: go test ./cmd/netsim -run TestCLIReference -update -->\n", "<!-- end of the generated reference -->\n"
	path := filepath.Join(repoRoot, "docs", "cli.md")
	doc := readRepo(t, "docs/cli.md")
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s: no generated reference (%q ... %q)", path, begin, end)
	}
	want := doc[:i+len(begin)] + "\n" + cliReference() + "\n" + doc[j:]
	if doc == want {
		return
	}
	if *updateDocs {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the reference differs from the commands' help: run go test ./cmd/netsim -run TestCLIReference -update", path)
}

// TestPerformanceBenchmarks checks that every benchmark command of
// docs/performance.md names benchmarks its package has: the pattern of
// -bench matches a Benchmark function in the package's test files (its
// first level, as go test splits a pattern by slashes, with the table's
// escaped bars unescaped).
func TestPerformanceBenchmarks(t *testing.T) {
	page := readRepo(t, "docs/performance.md")
	cmd := regexp.MustCompile(`go test -run '\^\$' -bench ('[^']+'|\S+) [^|]*?\./([a-z/]+)`)
	bench := regexp.MustCompile(`(?m)^func (Benchmark\w+)\(b \*testing\.B\)`)
	found := cmd.FindAllStringSubmatch(page, -1)
	if len(found) < 5 {
		t.Fatalf("%d benchmark commands in docs/performance.md, expected at least 5", len(found))
	}
	for _, m := range found {
		pattern, pkg := strings.ReplaceAll(strings.Trim(m[1], "'"), `\|`, "|"), m[2]
		re, err := regexp.Compile(strings.SplitN(pattern, "/", 2)[0])
		if err != nil {
			t.Errorf("%s: -bench %s: %v", m[0], pattern, err)
			continue
		}
		files, _ := filepath.Glob(filepath.Join(repoRoot, pkg, "*_test.go"))
		matched := false
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, fn := range bench.FindAllStringSubmatch(string(b), -1) {
				matched = matched || re.MatchString(fn[1]) // as go test matches: the whole function name
			}
		}
		if !matched {
			t.Errorf("docs/performance.md: %s: no benchmark of ./%s matches %q", m[0], pkg, pattern)
		}
	}
}
