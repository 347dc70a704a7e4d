package main

import (
	"image"
	_ "image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// resultsFile holds saturation results of two routings, points and a
// failed point, in no particular order.
const resultsFile = `{"kind":"saturation","experiment":"b","topology":"flatfly 4x4 w1,1 c4","routing":"dor","pattern":"complement","vls":2,"seed":1,"saturation":0.1171875,"resolution":128,"tolerance":0.02}
{"kind":"saturation","experiment":"a","topology":"flatfly 4x4 w1,1 c4","routing":"distance+2","pattern":"uniform","vls":4,"seed":1,"saturation":0.75,"resolution":128,"tolerance":0.02}
{"kind":"point","experiment":"b","topology":"flatfly 4x4 w1,1 c4","routing":"dor","pattern":"uniform","vls":2,"seed":5,"offered":0.5,"generated":0.5,"accepted":0.49,"latency_avg":50,"latency_p99":120,"hops_avg":2.5,"delivered":9,"measured_packets":9,"cycles":900,"stable":true}
{"kind":"saturation","experiment":"b","topology":"flatfly 4x4 w1,1 c4","routing":"dor","pattern":"uniform","vls":2,"seed":1,"saturation":0.8125,"resolution":128,"tolerance":0.02}
{"kind":"error","experiment":"b","topology":"flatfly 4x4 w1,1 c4","routing":"dor","pattern":"complement","vls":2,"seed":6,"offered":1,"deadlock":true,"error":"deadlock"}
{"kind":"point","experiment":"b","topology":"flatfly 4x4 w1,1 c4","routing":"dor","pattern":"uniform","vls":2,"seed":6,"offered":0.25,"generated":0.25,"accepted":0.25,"latency_avg":30,"latency_p99":60,"hops_avg":2.5,"delivered":9,"measured_packets":9,"cycles":900,"stable":true}
`

func TestTableCommand(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "results.jsonl", resultsFile)
	code, out, errs := netsim(t, "table", file)
	wantMD := `Saturation (highest stable offered load, % of link bandwidth) by traffic pattern.

| topology | routing | uniform | complement |
|---|---|---:|---:|
| flatfly 4x4 w1,1 c4 | dor | 81.3 | 11.7 |
| flatfly 4x4 w1,1 c4 | distance+2 | 75.0 | — |
`
	if code != exitOK || out != wantMD {
		t.Errorf("exit %d, stdout:\n%s\nwant:\n%s", code, out, wantMD)
	}
	if !strings.Contains(errs, `netsim table: note: 1 failed point(s) ("kind":"error" lines) skipped`) {
		t.Errorf("stderr %q", errs)
	}

	csvPath := filepath.Join(dir, "t.csv")
	if code, out, errs := netsim(t, "table", "-o", csvPath, file, "--value", "latency_p99"); code != exitOK || out != "" {
		t.Fatalf("-o: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	got, err := os.ReadFile(csvPath)
	wantCSV := "topology,routing,pattern,0.25,0.5\n\"flatfly 4x4 w1,1 c4\",dor,uniform,60,120\n"
	if err != nil || string(got) != wantCSV {
		t.Errorf("t.csv (format from the extension): %q, want %q (%v)", got, wantCSV, err)
	}

	code, out, _ = netsim(t, "table", file, "--rows", "routing,vls", "--cols", "pattern", "--format", "csv")
	if wantCSV := "routing,vls,uniform,complement\ndor,2,81.25,11.71875\ndistance+2,4,75,\n"; code != exitOK || out != wantCSV {
		t.Errorf("--rows routing,vls: exit %d\n%s\nwant\n%s", code, out, wantCSV)
	}
}

func TestTableCommandErrors(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.jsonl", resultsFile)
	bad := writeFile(t, dir, "bad.jsonl", resultsFile+"{\"kind\":\"point\"}\n")
	dup := writeFile(t, dir, "dup.jsonl", strings.Replace(resultsFile, `"vls":2,"seed":1,"saturation":0.8125`, `"vls":2,"seed":1,"saturation":0.5`, 1))
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no file", []string{"table"}, exitUsage, "need at least one results file"},
		{"missing file", []string{"table", filepath.Join(dir, "none.jsonl")}, exitUsage, "none.jsonl"},
		{"bad line", []string{"table", good, bad}, exitUsage, "bad.jsonl:7: point line lacks \"topology\""},
		{"bad format", []string{"table", good, "--format", "xls"}, exitUsage, `--format: unknown format "xls"`},
		{"bad value", []string{"table", good, "--value", "power"}, exitUsage, `value "power": unknown`},
		{"bad rows", []string{"table", good, "--rows", "topology,buffer"}, exitUsage, `field "buffer": no saturation result has it`},
		{"conflict", []string{"table", good, dup}, exitUsage, "good.jsonl:4 and " + dup + ":4: different saturation (0.8125, 0.5)"},
		{"unwritable", []string{"table", good, "-o", filepath.Join(dir, "no", "t.md")}, exitFailed, "no such file or directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := netsim(t, tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d (want %d), stderr %q, want %q", code, tc.code, errs, tc.want)
			}
			if out != "" {
				t.Errorf("stdout %q", out)
			}
		})
	}
	if code, out, _ := netsim(t, "help", "table"); code != exitOK || !strings.Contains(out, "--rows KEYS") {
		t.Errorf("help table: exit %d\n%s", code, out)
	}
}

func TestPlotCommand(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "results.jsonl", resultsFile)
	outDir := filepath.Join(dir, "plots")
	code, out, errs := netsim(t, "plot", file, "-o", outDir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var want []string
	for _, n := range []string{"throughput-flatfly_4x4_w1_1_c4-uniform", "latency-flatfly_4x4_w1_1_c4-uniform", "saturation-flatfly_4x4_w1_1_c4"} {
		want = append(want, filepath.Join(outDir, n+".png"), filepath.Join(outDir, n+".svg"))
	}
	if out != strings.Join(want, "\n")+"\n" {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, strings.Join(want, "\n"))
	}
	f, err := os.Open(want[4])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, _, err := image.Decode(f); err != nil {
		t.Errorf("%s: %v", want[4], err)
	}
	code, out, _ = netsim(t, "plot", file, "-o", outDir, "--by", "pattern")
	if code != exitOK || !strings.Contains(out, "throughput-flatfly_4x4_w1_1_c4-dor.png") {
		t.Errorf("--by pattern: exit %d\n%s", code, out)
	}

	errorsOnly := writeFile(t, dir, "errors.jsonl", strings.Split(resultsFile, "\n")[4]+"\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"plot", file}, "-o DIR is required"},
		{[]string{"plot", "-o", outDir}, "need at least one results file"},
		{[]string{"plot", file, "-o", outDir, "--by", "vls"}, `--by: unknown "vls"`},
		{[]string{"plot", errorsOnly, "-o", outDir}, "nothing to plot"},
	} {
		if code, _, errs := netsim(t, tc.args...); code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: exit %d, stderr %q, want %q", tc.args, code, errs, tc.want)
		}
	}
}

// TestRunReportWriteFailure checks that a chart that cannot be written
// makes netsim run -o exit with status 1, results and table still written.
func TestRunReportWriteFailure(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "xbar.toml", small)
	outDir := filepath.Join(dir, "out")
	if err := os.MkdirAll(filepath.Join(outDir, "saturation-crossbar_h16.png"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, errs := netsim(t, "run", file, "-o", outDir, "-j", "2")
	if code != exitFailed || !strings.Contains(errs, "saturation-crossbar_h16.png") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	for _, name := range []string{"results.jsonl", "table.md", "table.csv", "throughput-crossbar_h16-uniform.png"} {
		if st, err := os.Stat(filepath.Join(outDir, name)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestRunSelectionSweep sweeps [switch] selection through netsim run and
// pivots the two selection functions side by side with netsim table.
func TestRunSelectionSweep(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "sel.toml", `name = "sel"
[topology]
kind = "flatfly"
dims = [4, 4]
hosts_per_switch = 4
[routing]
algorithm = "deflection+2"
[flow_control]
vls = 8
[switch]
selection = ["credits", "idle"]
[traffic]
pattern = "complement"
[sim]
warmup = 200
measure = 800
[sweep]
loads = [0.4]
`)
	out := filepath.Join(dir, "out")
	code, stdout, errs := netsim(t, "run", file, "-o", out, "-q")
	if code != exitOK || !strings.Contains(stdout, "deflection+2, credit 8 VL × 64 flits, cut-through, idle selection, 16-flit packets") {
		t.Fatalf("run: exit %d, stderr %q, stdout:\n%s", code, errs, stdout)
	}
	code, stdout, errs = netsim(t, "table", filepath.Join(out, "results.jsonl"), "--rows", "routing,offered", "--cols", "selection", "--value", "hops_avg", "--format", "csv")
	if code != exitOK || !strings.HasPrefix(stdout, "routing,offered,credits,idle\ndeflection+2,0.4,") {
		t.Errorf("table: exit %d, stderr %q, stdout:\n%s", code, errs, stdout)
	}
	// The hops by priority pivot from the CLI too: a number in both cells.
	hopsTable := regexp.MustCompile(`^routing,offered,credits,idle\ndeflection\+2,0\.4,[0-9.]+,[0-9.]+\n$`)
	for _, v := range []string{"hops_medium", "hops_low"} {
		code, stdout, errs = netsim(t, "table", filepath.Join(out, "results.jsonl"), "--rows", "routing,offered", "--cols", "selection", "--value", v, "--format", "csv")
		if code != exitOK || !hopsTable.MatchString(stdout) {
			t.Errorf("table --value %s: exit %d, stderr %q, stdout:\n%s", v, code, errs, stdout)
		}
	}
}
