package fabric

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"netsim/flowctl"
	"netsim/keyerr"
	"netsim/nic"
	"netsim/routing"
	switching "netsim/switch"
	"netsim/topologies"
)

// MaxTimelineWindows bounds the windows of a run's timeline
// (Config.Timeline).
const MaxTimelineWindows = 10000

// MaxMeasureFactor bounds how many times Measure the measurement window
// may grow to (Config.MaxMeasure), which bounds its bins.
const MaxMeasureFactor = 1024

// MaxOutstanding bounds Config.Outstanding.
const MaxOutstanding = 1 << 16

// maxCycles bounds a run so every time fits the model's counters.
const maxCycles = 1 << 40

// Validate checks the configuration, naming the experiment key at fault.
func (c *Config) Validate() error {
	switch {
	case c.Net == nil:
		return errors.New("topology: missing")
	case c.Routing == nil:
		return errors.New("routing: missing")
	case c.Pattern == nil:
		return keyerr.New("pattern", "missing")
	case !(c.Load > 0 && c.Load <= 1):
		return fmt.Errorf("load: must be in (0, 1] flits/host/cycle, got %v", c.Load)
	case c.Active != nil && len(c.Active) != len(c.Net.Hosts):
		return fmt.Errorf("pattern: sending hosts given for %d hosts, the network has %d", len(c.Active), len(c.Net.Hosts))
	case c.Active != nil && c.Sources() == 0:
		return keyerr.New("pattern", "%s: no host reaches its destination by the routing's tables (every pair the pattern uses is unreachable)", c.Pattern.Name())
	}
	return c.ValidateHardware()
}

// ValidateHardware checks what Validate checks but the load and the
// shortestPacket returns the length of the shortest packet a switch may
// hold: a route probe's flit when NICs probe, the last packet of an
// exchange's messages, else PacketFlits.
func (c *Config) shortestPacket() int {
	switch {
	case c.Dispersion.Mode == nic.Probing:
		return 1
	case c.shortest > 0:
		return c.shortest
	case c.MessageSizes != nil:
		return c.MessageSizes.ShortestPacket(max(c.PacketFlits, 1))
	case c.Outstanding > 0:
		return max(min(c.PacketFlits, c.ReplyFlits), 1)
	}
	return max(c.PacketFlits, 1)
}

// flitDelay returns the cycles from a flit leaving a switch's buffer to
// its arrival in the next over a link of latency lat: switch allocation,
// crossbar and link.
func (c *Config) flitDelay(lat int) int { return c.SwAllocDelay + c.CrossbarDelay + lat }

// switchLatency returns the latency of the switch-to-switch link of class
// dim (topologies.Port.Dim).
func (c *Config) switchLatency(dim int16) int {
	if c.LinkLatencies != nil && dim >= 0 && int(dim) < len(c.LinkLatencies) {
		return c.LinkLatencies[dim]
	}
	return c.LinkLatency
}

// hostLatency returns the latency of host links.
func (c *Config) hostLatency() int {
	if c.HostLinkLatency > 0 {
		return c.HostLinkLatency
	}
	return c.LinkLatency
}

// linkLatency returns the latency of the link from port of switch s:
// its class's, plus its cable's under a floorplan.
func (c *Config) linkLatency(s int, port topologies.Port) int {
	return c.switchLatency(port.Dim) + c.Floorplan.Cable(s, int(port.Peer))
}

// MaxLatency returns the longest link latency of the configuration:
// of a class, of host links, or with its cable under a floorplan.
func (c *Config) MaxLatency() int { return c.maxLatency() }

// maxLatency returns the longest link latency.
func (c *Config) maxLatency() int {
	m := max(c.LinkLatency, c.hostLatency())
	for _, l := range c.LinkLatencies {
		m = max(m, l)
	}
	if c.Floorplan != nil && c.Net != nil {
		for s, sw := range c.Net.Switches {
			for _, port := range sw.Ports {
				if port.Kind == topologies.SwitchPort {
					m = max(m, c.linkLatency(s, port))
				}
			}
		}
	}
	return m
}

// checkLinkClasses checks that every switch-to-switch link has a latency
// class of LinkLatencies, which must name as many classes as the network
// has.
func (c *Config) checkLinkClasses() error {
	if c.LinkLatencies == nil {
		return nil
	}
	classes := int16(-1)
	for s, sw := range c.Net.Switches {
		for p, port := range sw.Ports {
			if port.Kind != topologies.SwitchPort {
				continue
			}
			if port.Dim < 0 {
				return keyerr.New("link_latencies", "the link of switch %d port %d has no class (link classes are a coordinate family's dimensions, a Dragonfly's local and global links, a tree's levels; topology %s has none)", s, p+1, c.Net.Kind)
			}
			classes = max(classes, port.Dim)
		}
	}
	if int(classes)+1 != len(c.LinkLatencies) {
		return keyerr.New("link_latencies", "topology %s has %d link classes (%s), got %d latencies", c.Net.Kind, classes+1, linkClassNames(c.Net.Kind, int(classes)+1), len(c.LinkLatencies))
	}
	for _, l := range c.LinkLatencies {
		if l < 1 {
			return keyerr.New("link_latencies", "latency %d: expected at least 1 cycle", l)
		}
	}
	return nil
}

// linkClassNames names the link classes of a topology kind for errors.
func linkClassNames(kind string, n int) string {
	if kind == "dragonfly" {
		return "local, global"
	}
	names := make([]string, n)
	for i := range names {
		switch kind {
		case "clos", "fattree", "xgft":
			names[i] = fmt.Sprintf("levels %d–%d", i, i+1)
		default:
			names[i] = fmt.Sprintf("dimension %d", i)
		}
	}
	return strings.Join(names, ", ")
}

// pattern: the configuration of a closed workload (RunExchange).
func (c *Config) ValidateHardware() error {
	switch {
	case c.Net == nil:
		return errors.New("topology: missing")
	case c.Routing == nil:
		return errors.New("routing: missing")
	case c.PacketFlits < 1 || c.PacketFlits > switching.MaxPacketFlits:
		return keyerr.New("packet_flits", "must be between 1 and %d, got %d", switching.MaxPacketFlits, c.PacketFlits)
	case c.VLs < c.Routing.VLs():
		return keyerr.New("vls", "routing %s needs %d VLs, got %d", c.Routing.Name(), c.Routing.VLs(), c.VLs)
	case c.Routing.SLs() < 1 || c.Routing.SLs() > routing.MaxSLs:
		return keyerr.New("algorithm", "routing %s uses %d SLs, want 1 to %d", c.Routing.Name(), c.Routing.SLs(), routing.MaxSLs)
	case c.Speedup < 1:
		return keyerr.New("speedup", "must be at least 1, got %d", c.Speedup)
	case c.RoutingDelay < 0:
		return keyerr.New("routing_delay", "must be at least 0, got %d", c.RoutingDelay)
	case c.CrossbarDelay < 0:
		return keyerr.New("crossbar_delay", "must be at least 0, got %d", c.CrossbarDelay)
	case c.Threads < 0:
		return keyerr.New("threads", "must be at least 0, got %d", c.Threads)
	case c.VLAllocDelay < 0:
		return keyerr.New("vl_alloc_delay", "must be at least 0, got %d", c.VLAllocDelay)
	case c.SwAllocDelay < 0:
		return keyerr.New("sw_alloc_delay", "must be at least 0, got %d", c.SwAllocDelay)
	case c.AllocIterations < 0 || c.AllocIterations > switching.MaxIterations:
		return keyerr.New("allocator_iterations", "must be between 1 and %d, got %d", switching.MaxIterations, c.AllocIterations)
	case c.Warmup < 0 || c.Warmup > maxCycles:
		return keyerr.New("warmup", "must be between 0 and %d cycles, got %d", int64(maxCycles), c.Warmup)
	case c.Measure < 1 || c.Measure > maxCycles:
		return keyerr.New("measure", "must be between 1 and %d cycles, got %d", int64(maxCycles), c.Measure)
	case c.Drain < 0 || c.Drain > maxCycles:
		return keyerr.New("drain", "must be between 0 and %d cycles, got %d", int64(maxCycles), c.Drain)
	case c.Warmup+c.Measure+c.Drain > maxCycles:
		return keyerr.New("drain", "warmup + measure + drain must not exceed %d cycles", int64(maxCycles))
	case c.MaxMeasure != 0 && (c.MaxMeasure < c.Measure || c.MaxMeasure%c.Measure != 0 || c.MaxMeasure/c.Measure > MaxMeasureFactor):
		return keyerr.New("max_measure", "must be measure (%d cycles) times 1 to %d, got %d", c.Measure, MaxMeasureFactor, c.MaxMeasure)
	case c.Warmup+c.maxMeasure()+c.Drain > maxCycles:
		return keyerr.New("max_measure", "warmup + max_measure + drain must not exceed %d cycles", int64(maxCycles))
	case c.Timeline < 0 || c.Timeline > 0 && (c.Warmup+c.maxMeasure()+c.Drain)/c.Timeline >= MaxTimelineWindows:
		return keyerr.New("timeline", "must be 0 (off) or a window of at least 1/%d of warmup + max_measure + drain (%d cycles), got %d",
			MaxTimelineWindows, c.Warmup+c.maxMeasure()+c.Drain, c.Timeline)
	case c.DeadlockWindow < 1:
		return keyerr.New("deadlock_window", "must be at least 1 cycle, got %d", c.DeadlockWindow)
	case c.Outstanding < 0 || c.Outstanding > MaxOutstanding:
		return keyerr.New("outstanding", "must be between 1 and %d, got %d", MaxOutstanding, c.Outstanding)
	case c.Outstanding > 0 && (c.ReplyFlits < 1 || c.ReplyFlits > c.PacketFlits):
		return keyerr.New("reply_flits", "must be between 1 and packet_flits = %d, got %d", c.PacketFlits, c.ReplyFlits)
	case c.Outstanding > 0 && c.MessageSizes != nil:
		return keyerr.New("outstanding", "request–reply traffic sends single-packet requests: not with message_size")
	}
	if err := c.Dispersion.Validate(); err != nil {
		return err
	}
	if _, ok := c.Routing.(routing.Multipath); !ok && c.Dispersion.Mode != nic.Static {
		return keyerr.New("dispersion", "%s needs a multipath source routing (routing \"source\", or tables read with several LIDs per host, LMC > 0), not %s",
			c.Dispersion.Mode, c.Routing.Name())
	}
	if !slices.Contains(switching.Modes(), c.Switching) {
		return keyerr.New("switching", "unknown mode %v", c.Switching)
	}
	if !slices.Contains(switching.Selections(), c.Selection) {
		return keyerr.New("selection", "unknown selection function %v", c.Selection)
	}
	if !slices.Contains(switching.Allocators(), c.Allocator) {
		return keyerr.New("allocator", "unknown allocator %v", c.Allocator)
	}
	if c.Switching == switching.CutThrough && c.BufferFlits < c.PacketFlits {
		return keyerr.New("buffer_flits", "virtual cut-through needs room for a whole packet (packet_flits = %d), got %d",
			c.PacketFlits, c.BufferFlits)
	}
	if f := c.Floorplan; f != nil && c.Net != nil && (len(f.Pos) != len(c.Net.Switches) || !(f.CyclesPerMeter >= 0)) {
		return keyerr.New("layout", "%d switch positions for %d switches, %v cycles per meter", len(f.Pos), len(c.Net.Switches), f.CyclesPerMeter)
	}
	if err := c.checkLinkClasses(); err != nil {
		return err
	}
	if err := c.linkParams(c.flitDelay(c.maxLatency()), c.maxLatency()).Validate(); err != nil {
		return err
	}
	if err := c.Net.Validate(); err != nil {
		return fmt.Errorf("topology: %w", err)
	}
	if !slices.Contains(switching.BuffersKinds(), c.Buffers) {
		return keyerr.New("buffers", "unknown buffer organisation %v", c.Buffers)
	}
	if err := c.validateShared(); err != nil {
		return err
	}
	if err := c.validateVLChoice(); err != nil {
		return err
	}
	for i, sw := range c.Net.Switches {
		p := c.switchParams(len(sw.Ports))
		if slots := p.Slots(); slots > switching.MaxSlots {
			return keyerr.New("buffers", "%s keeps %d flits / shortest packet + 3 = %d/%d + 3 = %d packets per buffer, more than %d",
				c.Buffers, p.Held(), p.Held(), c.shortestPacket(), slots, switching.MaxSlots)
		}
		if lanes := len(sw.Ports) * c.VLs * p.Slots(); lanes > switching.MaxLanes {
			return keyerr.New("vls", "switch %d has %d ports × %d VLs × %d packet slots = %d lanes, more than the %d a switch supports",
				i, len(sw.Ports), c.VLs, p.Slots(), lanes, switching.MaxLanes)
		}
	}
	return nil
}

// validateShared checks the keys of the shared memory: set only with
// buffers = "shared", which needs credits, and a reserve that holds a
// packet under cut-through and fits the buffer.
func (c *Config) validateShared() error {
	if c.Buffers != switching.BuffersShared {
		for _, k := range []struct {
			name string
			set  bool
		}{{"shared_reserve", c.SharedReserve != 0}, {"shared_alpha", c.SharedAlpha != 0}, {"shared_limit", c.SharedLimit != 0}} {
			if k.set {
				return keyerr.New(k.name, "only used with buffers = %q", switching.BuffersShared)
			}
		}
		return nil
	}
	switch {
	case c.FlowControl != flowctl.KindCredit:
		return keyerr.New("buffers", "%q needs credit flow control (its credits are its memory), got %q", switching.BuffersShared, c.FlowControl)
	case c.Speedup != 1:
		return keyerr.New("speedup", "has no meaning with buffers = %q, where the outputs read the memory and any number of an input's packets leave at once; got %d", switching.BuffersShared, c.Speedup)
	case c.SharedReserve < 0 || c.SharedReserve > c.BufferFlits:
		return keyerr.New("shared_reserve", "must be between 1 and buffer_flits (%d), got %d", c.BufferFlits, c.SharedReserve)
	case c.Switching == switching.CutThrough && c.SharedReserve != 0 && c.SharedReserve < c.PacketFlits:
		return keyerr.New("shared_reserve", "virtual cut-through needs a reserve that holds a whole packet (packet_flits = %d), got %d", c.PacketFlits, c.SharedReserve)
	case c.SharedAlpha < 0 || math.IsNaN(c.SharedAlpha) || math.IsInf(c.SharedAlpha, 0):
		return keyerr.New("shared_alpha", "must be a positive number, got %v", c.SharedAlpha)
	case c.SharedLimit < 0 || c.SharedLimit > flowctl.MaxBuffer:
		return keyerr.New("shared_limit", "must be between 1 and %d, got %d", flowctl.MaxBuffer, c.SharedLimit)
	}
	return nil
}

// validateVLChoice checks that under dynamic VL choice the routing names
// VL classes: its Source gives a VL below its VLs() (not one of the copies
// a routing built on more VLs spreads over), checked from host 0 to every
// host and from every host to host 0 (the routings' copies depend on the
// destination; a full check would cost hosts²).
func (c *Config) validateVLChoice() error {
	switch c.VLChoice {
	case switching.VLStatic:
		return nil
	case switching.VLDynamic:
	default:
		return keyerr.New("vl_choice", "unknown VL choice %v", c.VLChoice)
	}
	need := c.Routing.VLs()
	if need > routing.MaxVLs {
		return keyerr.New("vls", "routing %s needs %d VLs, more than %d", c.Routing.Name(), need, routing.MaxVLs)
	}
	for h := range c.Net.Hosts {
		for _, p := range [2][2]int{{0, h}, {h, 0}} {
			if _, _, vl := c.Routing.Source(p[0], p[1]); vl < 0 || vl >= need {
				return keyerr.New("vl_choice", "%q needs a routing built on its own VLs (routing.Spec.Classes): routing %s starts host %d's packets to host %d on VL %d, but needs %d VLs",
					switching.VLDynamic, c.Routing.Name(), p[0], p[1], vl, need)
			}
		}
	}
	return nil
}

// switchParams returns the buffer parameters of a switch of ports ports
// (the fields Slots and the shared memory read).
func (c *Config) switchParams(ports int) switching.Params {
	return switching.Params{
		Ports:          ports,
		VLs:            c.VLs,
		Buffer:         c.BufferFlits,
		Buffers:        c.Buffers,
		ShortestPacket: c.shortestPacket(),
		LongestPacket:  c.PacketFlits,
		Reserve:        c.SharedReserve,
		Alpha:          c.SharedAlpha,
		Limit:          c.SharedLimit,
	}
}

func (c *Config) linkParams(delay, latency int) flowctl.Params {
	return flowctl.Params{
		Kind:     c.FlowControl,
		VLs:      c.VLs,
		Buffer:   c.BufferFlits,
		Latency:  latency,
		Delay:    delay,
		Rate:     c.Speedup,
		StopMark: c.StopMark,
		GoMark:   c.GoMark,
	}
}
