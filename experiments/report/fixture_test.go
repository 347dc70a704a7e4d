package report

import (
	"fmt"
	"strings"
	"testing"
)

// satLine returns a saturation results line.
func satLine(topo, routing, pattern string, v float64) string {
	return fmt.Sprintf(`{"kind":"saturation","experiment":"e","topology":%q,"routing":%q,"pattern":%q,"flow_control":"credit","switching":"cut-through","vls":2,"packet_flits":16,"seed":1,"saturation":%v,"resolution":128,"tolerance":0.02}`,
		topo, routing, pattern, v)
}

// pointLine returns a point results line; latency "null" stands for a
// point without delivered packets.
func pointLine(topo, routing, pattern string, offered, accepted float64, latency string) string {
	return fmt.Sprintf(`{"kind":"point","experiment":"e","topology":%q,"routing":%q,"pattern":%q,"flow_control":"credit","switching":"cut-through","vls":2,"packet_flits":16,"seed":7,"offered":%v,"generated":%v,"accepted":%v,"latency_avg":%s,"latency_p99":%s,"hops_avg":2.5,"delivered":10,"measured_packets":10,"cycles":3000,"stable":true}`,
		topo, routing, pattern, offered, offered, accepted, latency, latency)
}

// errorLine returns an error results line.
func errorLine(pattern string, offered float64) string {
	return fmt.Sprintf(`{"kind":"error","experiment":"e","topology":"flatfly 4x4 w1,1 c4","routing":"dor","pattern":%q,"flow_control":"credit","switching":"cut-through","vls":2,"packet_flits":16,"seed":9,"offered":%v,"deadlock":true,"error":"experiment e, pattern %s: deadlock"}`,
		pattern, offered, pattern)
}

const (
	ff4  = "flatfly 4x4 w1,1 c4"
	ff16 = "flatfly 16x16 w1,1 c4"
)

// fixtureLines are the results of the tests: saturation values of seed
// 004's FlatFly DOR row (in 128ths) and others, points with a missing load
// and a missing latency, and a failed point; in no particular order.
func fixtureLines() []string {
	return []string{
		satLine(ff16, "dor", "randperm", 0.25),
		satLine(ff4, "dor", "transpose", 3.0/128),
		satLine(ff4, "dor", "uniform", 104.0/128),
		satLine(ff4, "ador", "complement", 0.5),
		satLine(ff4, "dor", "complement", 15.0/128),
		pointLine(ff4, "dor", "uniform", 0.5, 0.4912, "40.25"),
		satLine(ff4, "dor", "shuffle", 10.0/128),
		satLine(ff4, "dor", "reverse", 2.0/128),
		satLine(ff16, "dor", "neighbor", 0.125),
		satLine(ff4, "dor", "rotation", 16.0/128),
		pointLine(ff4, "dor", "uniform", 0.1, 0.1, "20"),
		satLine(ff4, "ador", "uniform", 0.75),
		pointLine(ff4, "dor", "complement", 0.1, 0.0999, "30.5"),
		satLine(ff16, "dor", "uniform", 0.5),
		pointLine(ff4, "dor", "uniform", 1, 0.62, "null"),
		pointLine(ff4, "dor", "complement", 0.5, 0.25, "900"),
		errorLine("complement", 1),
		pointLine(ff4, "ador", "uniform", 0.25, 0.25, "25"),
	}
}

// fixture decodes lines.
func fixture(t *testing.T, lines []string) []Result {
	t.Helper()
	rs, notes, err := Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), "r.jsonl")
	if err != nil || len(notes) > 0 {
		t.Fatalf("fixture: %v, notes %q", err, notes)
	}
	return rs
}
