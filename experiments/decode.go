package experiments

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	switching "netsim/switch"
)

// Defaults of optional keys; [sim] drain defaults to the measure value.
const (
	DefaultSeed           = 1             // seed
	DefaultFlowControl    = "credit"      // [flow_control] kind
	DefaultVLs            = 1             // [flow_control] vls
	DefaultBufferFlits    = 64            // [flow_control] buffer_flits
	DefaultSwitching      = "cut-through" // [switch] switching
	DefaultSpeedup        = 1             // [switch] speedup
	DefaultLinkLatency    = 1             // [switch] link_latency
	DefaultRoutingDelay   = 1             // [switch] routing_delay
	DefaultCrossbarDelay  = 1             // [switch] crossbar_delay
	DefaultSelection      = "credits"     // [switch] selection
	DefaultPacketFlits    = 16            // [traffic] packet_flits
	DefaultWarmup         = 2000          // [sim] warmup
	DefaultMeasure        = 10000         // [sim] measure
	DefaultDeadlockWindow = 10000         // [sim] deadlock_window
	DefaultMaxMeasure     = 4             // [sim] max_measure, times measure
	DefaultReplications   = 1             // [sim] replications
	DefaultThreads        = 1             // [sim] threads
	maxReplications       = 1000
	DefaultResolution     = 128  // [sweep] resolution
	DefaultTolerance      = 0.02 // [sweep] tolerance
)

// parse decodes and checks the text of an experiment file that sweeps
// nothing, without building the network. All problems are returned, joined,
// in order of discovery; each is an *InputError. The decoder is returned for
// the build step.
func parse(file string, data []byte) (*Experiment, *decoder, error) {
	root, src, err := readTree(file, data, nil)
	if err != nil {
		return nil, nil, err
	}
	d := &decoder{src: src}
	e := d.decodeTree(file, root)
	if len(d.errs) > 0 {
		d.sortErrors()
		return nil, nil, errors.Join(d.errs...)
	}
	return e, d, nil
}

// decodeTree decodes and checks the merged tree of one variant of the
// experiment file called file, without building the network. Problems are
// recorded in d.errs, each an *InputError.
func (d *decoder) decodeTree(file string, root map[string]any) *Experiment {
	e := &Experiment{File: file, src: d.src}
	d.checkKeys(root, "", sectionKeys(""))

	base := filepath.Base(file)
	e.Name = strings.TrimSuffix(base, filepath.Ext(base))
	if s, ok := d.str(root, "", "name"); ok {
		if strings.TrimSpace(s) == "" {
			d.fail("", "name", "must not be empty")
		} else {
			e.Name = s
		}
	}
	if bad := strings.IndexFunc(e.Name, func(r rune) bool { return r == '|' || unicode.IsControl(r) }); bad >= 0 {
		what := "name"
		if _, ok := root["name"]; !ok {
			what = "the file's name, the default name,"
		}
		d.fail("", "name", "%q: %s must not hold %q (a result's key is EXPERIMENT|VARIANT|PATTERN|…, and table headers are lines)", e.Name, what, e.Name[bad:bad+utf8.RuneLen([]rune(e.Name[bad:])[0])])
	}
	e.Description, _ = d.str(root, "", "description")
	e.Seed = uint64(d.intKey(root, "", "seed"))

	d.topology(e, d.table(root, "topology", true))
	d.routing(e, d.table(root, "routing", true))
	d.switchSection(e, d.table(root, "switch", false))
	d.flowControl(e, d.table(root, "flow_control", false))
	d.nicSection(e, d.table(root, "nic", false))
	// [traffic] is needed by netsim run, not by a congestion study.
	d.traffic(e, d.table(root, "traffic", root["congestion"] == nil))
	d.sim(e, d.table(root, "sim", false))
	d.sweep(e, d.table(root, "sweep", false))
	d.congestion(e, d.table(root, "congestion", false))
	d.crossChecks(e)
	return e
}

// syntaxError converts a TOML decoding error into an *InputError. The line
// is computed from the error's byte offset, which points at the offending
// character.
func syntaxError(file, text string, err error) error {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		return &InputError{File: file, Msg: "invalid TOML: " + err.Error()}
	}
	line := pe.Position.Line
	if s := pe.Position.Start; s > 0 && s <= len(text) {
		line = strings.Count(text[:s], "\n") + 1
	}
	return &InputError{File: file, Line: line, Msg: "invalid TOML: " + pe.Message}
}

// crossChecks validates constraints between sections.
func (d *decoder) crossChecks(e *Experiment) {
	if e.Switch.Switching == switching.CutThrough && e.FlowControl.BufferFlits < e.Traffic.PacketFlits {
		d.fail("flow_control", "buffer_flits",
			"%d cannot hold a whole packet, which virtual cut-through needs (expected ≥ packet_flits = %d, or switching = \"wormhole\")",
			e.FlowControl.BufferFlits, e.Traffic.PacketFlits)
	}
	d.exchangeChecks(e)
}

// DisplayName returns the experiment's name, followed by its variant in
// brackets when the file sweeps keys: "ff [routing.algorithm=dor]".
func (e *Experiment) DisplayName() string {
	name := e.Name
	if e.Variant != "" {
		name += " [" + e.Variant + "]"
	}
	if e.Replication > 0 {
		name += fmt.Sprintf(" (replication %d)", e.Replication)
	}
	return name
}

// String describes the experiment's configuration on one line.
func (e *Experiment) String() string {
	sel := ""
	if e.Switch.Selection != switching.SelectCredits {
		sel = ", " + e.Switch.Selection.String() + " selection"
	}
	if e.Switch.Buffers != switching.BuffersFIFO {
		sel += ", " + e.Switch.Buffers.String() + " buffers"
	}
	if e.Switch.Allocator != switching.AllocOldestFirst {
		sel += fmt.Sprintf(", %s allocator × %d", e.Switch.Allocator, e.Switch.Iterations)
	}
	if e.Switch.VLChoice != switching.VLStatic {
		sel += ", " + e.Switch.VLChoice.String() + " VL choice"
	}
	return fmt.Sprintf("%s: %s, %s, %s %d VL × %d flits, %s%s, %d-flit packets",
		e.DisplayName(), e.label, e.Routing, e.FlowControl.Kind, e.FlowControl.VLs,
		e.FlowControl.BufferFlits, e.Switch.Switching, sel, e.Traffic.PacketFlits)
}
