package experiments

import "testing"

func TestKeyLines(t *testing.T) {
	const text = `name = "x"  # comment with [brackets] and key = 1
seed = 1

[topology]
kind = "flatfly"
"dims" = [8, 8]
hosts_per_switch = 8 # = 9

[ flow_control ]
vls=2
sweep.mode = "loads"

[sim]
note = "a # b = c"

[switch]
speedup = 1
`
	const dotted = "switch.speedup = 2\nsweep = { mode = \"loads\", resolution = 4 }\n[traffic]\npacket_flits = 3\n"
	tests := []struct {
		name, text, section, key string
		want                     int
	}{
		{"top-level key", text, "", "seed", 2},
		{"section header", text, "topology", "", 4},
		{"key in section", text, "topology", "kind", 5},
		{"quoted key", text, "topology", "dims", 6},
		{"comment ignored", text, "topology", "hosts_per_switch", 7},
		{"spaced header", text, "flow_control", "vls", 10},
		{"dotted key under table", text, "flow_control", "sweep.mode", 11},
		{"missing key falls back to section", text, "topology", "widths", 4},
		{"missing section", text, "routing", "algorithm", 0},
		{"same key name in another section", text, "switch", "speedup", 17},
		{"top-level dotted key", dotted, "switch", "speedup", 1},
		{"inline table key", dotted, "sweep", "resolution", 2},
		{"inline table section", dotted, "sweep", "", 2},
		{"section opened by dotted key", dotted, "switch", "", 1},
		{"after inline table", dotted, "traffic", "packet_flits", 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := newKeyLines(tc.text).line(tc.section, tc.key); got != tc.want {
				t.Errorf("line(%q, %q) = %d, want %d", tc.section, tc.key, got, tc.want)
			}
		})
	}
}

func TestStripComment(t *testing.T) {
	tests := []struct{ in, want string }{
		{`a = 1 # c`, `a = 1 `},
		{`a = "x # y" # c`, `a = "x # y" `},
		{`a = 'x # y'`, `a = 'x # y'`},
		{`a = "q\" # y" # c`, `a = "q\" # y" `},
		{`# only`, ``},
	}
	for _, tc := range tests {
		if got := stripComment(tc.in); got != tc.want {
			t.Errorf("stripComment(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
