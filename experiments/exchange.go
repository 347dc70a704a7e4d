package experiments

import (
	"slices"

	"netsim/fabric"
	"netsim/nic"
	"netsim/results"
)

// Traffic kinds.
const (
	// KindLoad is open traffic: Bernoulli sources swept over offered load.
	KindLoad = "load"
	// KindExchange is seed 001's effective-bisection benchmark: pairs of
	// hosts exchange messages; see fabric.RunEBB.
	KindExchange = "bisection_exchange"
	// KindEBB is the record kind of an exchange result in JSON lines.
	KindEBB = results.KindEBB
)

// Defaults of the [nic] section and of the exchange keys of [traffic].
const (
	DefaultDispersion   = "static"
	DefaultThreshold    = 4   // seed 001 §5.3
	DefaultProbability  = 0.5 // seed 001 §5.3
	DefaultMaxProbes    = 32  // seed 001 §4.3: every route (16) probed more than once
	DefaultMessages     = 4
	DefaultMessageBytes = 65536
	DefaultMTUBytes     = 4096
	DefaultFlitBytes    = 64
	DefaultBisections   = 10
)

// nicSection decodes [nic].
func (d *decoder) nicSection(e *Experiment, t map[string]any) {
	const sec = "nic"
	d.checkKeys(t, sec, sectionKeys(sec))
	n := &e.NIC
	n.Dispersion, _ = nic.ParseMode(d.choiceKey(t, sec, "dispersion")) // one of the schema's values
	n.Threshold = int(d.intKey(t, sec, "threshold"))
	n.Probability = d.numberKey(t, sec, "probability")
	n.MaxProbes = int(d.intKey(t, sec, "max_probes"))
	n.RouteLag = int(d.intKey(t, sec, "route_lag"))
	for _, k := range []string{"threshold", "probability"} {
		if _, ok := t[k]; ok && n.Dispersion != nic.Adaptive && n.Dispersion != nic.Probing {
			d.fail(sec, k, "only used with dispersion = \"adaptive\" or \"probing\"")
		}
	}
	if _, ok := t["max_probes"]; ok && n.Dispersion != nic.Probing {
		d.fail(sec, "max_probes", "only used with dispersion = \"probing\"")
	}
	n.ReceiveRate = 0
	if r := d.numberKey(t, sec, "receive_rate"); r > 0 && r < 1 {
		n.ReceiveRate = r
	}
}

// exchangeTraffic decodes the [traffic] section of a bisection exchange.
func (d *decoder) exchangeTraffic(e *Experiment, t map[string]any) {
	const sec = "traffic"
	tr := &e.Traffic
	d.patternKey = "patterns"
	if _, ok := t["pattern"]; ok {
		d.fail(sec, "pattern", "not used with kind = %q (use patterns = [\"bisection\", \"bridge\"])", KindExchange)
	}
	for _, k := range []string{"burst", "idle", "hotspot_fraction", "hotspot_hosts", "matrix", "message_size", "outstanding", "reply_flits"} {
		if _, ok := t[k]; ok {
			d.fail(sec, k, "not used with kind = %q (hosts stream their messages to their partners)", KindExchange)
		}
	}
	if _, ok := t["packet_flits"]; ok {
		d.fail(sec, "packet_flits", "not used with kind = %q (packets are mtu_bytes, flits flit_bytes)", KindExchange)
	}
	tr.Patterns = []string{fabric.RandomBisection}
	if _, ok := t["patterns"]; ok {
		tr.Patterns = d.strList(t, sec, "patterns")
		if len(tr.Patterns) == 0 {
			d.fail(sec, "patterns", "empty list (expected [\"bisection\"], [\"bridge\"] or both)")
		}
		for i, p := range tr.Patterns {
			if p != fabric.RandomBisection && p != fabric.BridgePattern {
				d.fail(sec, "patterns", "unknown exchange pattern %q (known: bisection, bridge)", p)
			} else if slices.Contains(tr.Patterns[:i], p) {
				d.fail(sec, "patterns", "pattern %q appears twice", p)
			}
		}
	}
	tr.Messages = int(d.intKey(t, sec, "messages"))
	tr.MessageBytes = int(d.intKey(t, sec, "message_bytes"))
	tr.MTUBytes = int(d.intKey(t, sec, "mtu_bytes"))
	tr.FlitBytes = int(d.intKey(t, sec, "flit_bytes"))
	tr.Bisections = int(d.intKey(t, sec, "bisections"))
	if tr.MTUBytes < tr.FlitBytes {
		d.fail(sec, "mtu_bytes", "%d is less than flit_bytes = %d", tr.MTUBytes, tr.FlitBytes)
		return
	}
	tr.PacketFlits = (tr.MTUBytes + tr.FlitBytes - 1) / tr.FlitBytes
	if tr.PacketFlits > maxPacketFlits {
		d.fail(sec, "mtu_bytes", "%d bytes are %d flits of %d bytes, more than the %d a packet may have",
			tr.MTUBytes, tr.PacketFlits, tr.FlitBytes, maxPacketFlits)
	}
	if packets := (tr.MessageBytes-1)/tr.MTUBytes + 1; packets > fabric.MaxMessagePackets {
		d.fail(sec, "message_bytes", "%d bytes are %d packets of mtu_bytes = %d, more than the %d a message may have",
			tr.MessageBytes, packets, tr.MTUBytes, fabric.MaxMessagePackets)
	}
}

// nicHash returns the [nic] section for the configuration hash when it
// differs from the default, so existing results keep their hash.
func (e *Experiment) nicHash() *NIC {
	if e.NIC == (NIC{Dispersion: nic.Static, Threshold: DefaultThreshold, Probability: DefaultProbability, MaxProbes: DefaultMaxProbes}) {
		return nil
	}
	return &e.NIC
}

// exchangeHash returns the traffic section of an exchange for the
// configuration hash, nil for load traffic.
func (e *Experiment) exchangeHash() *Traffic {
	if e.Traffic.Kind != KindExchange {
		return nil
	}
	t := e.Traffic
	t.Patterns = nil
	return &t
}

// dispersion returns the [nic] section as the NICs take it.
func (e *Experiment) dispersion() nic.Dispersion {
	return nic.Dispersion{Mode: e.NIC.Dispersion, Threshold: e.NIC.Threshold, Probability: e.NIC.Probability, MaxProbes: e.NIC.MaxProbes, Lag: e.NIC.RouteLag}
}

// exchangeChecks checks the [nic] keys that only an exchange uses.
func (d *decoder) exchangeChecks(e *Experiment) {
	if e.NIC.RouteLag != 0 && e.Traffic.Kind != KindExchange {
		d.fail("nic", "route_lag", "only used with [traffic] kind = %q", KindExchange)
	}
}

// exchangeConfig returns the simulation configuration of an exchange: the
// hardware of e, its dispersion and seed.
func (e *Experiment) exchangeConfig() fabric.Config {
	c := e.hardware()
	c.Measure = 1 // RunExchange runs until every flit has arrived
	c.Seed = e.Seed
	return c
}

// IsExchange reports whether e is a bisection exchange: a run of it
// gives one KindEBB record per exchange pattern (see Plan).
func (e *Experiment) IsExchange() bool { return e.Traffic.Kind == KindExchange }
