package fabric

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"netsim/kernel"
	"netsim/keyerr"
	"netsim/nic"
	"netsim/results"
	"netsim/traffic"
)

// Exchange is the closed workload of seed 001's effective-bisection
// benchmark: every host with a partner sends Messages messages of
// MessageBytes to it, split into packets of at most MTUBytes, a flit being
// FlitBytes, as fast as flow control lets it. Partners are mutual, so each
// pair exchanges in both directions at once.
type Exchange struct {
	// Partner holds each host's partner, or −1 for a host that sits out.
	Partner []int
	// Messages is the number of messages each host sends.
	Messages int
	// MessageBytes, MTUBytes and FlitBytes size the messages, packets and
	// flits.
	MessageBytes, MTUBytes, FlitBytes int
}

// MaxMessagePackets is the most packets a message of an Exchange may be
// split into (MessageBytes / MTUBytes, rounded up): PacketFlits keeps one
// entry per packet.
const MaxMessagePackets = 1 << 20

// checkPacketBytes checks the sizes of packets and flits of an exchange
// or a workload.
func checkPacketBytes(mtuBytes, flitBytes int) error {
	switch {
	case flitBytes < 1:
		return keyerr.New("flit_bytes", "must be at least 1, got %d", flitBytes)
	case mtuBytes < flitBytes:
		return keyerr.New("mtu_bytes", "must be at least flit_bytes = %d, got %d", flitBytes, mtuBytes)
	case (mtuBytes+flitBytes-1)/flitBytes > 1<<16-1:
		return keyerr.New("mtu_bytes", "%d bytes are more than %d flits of %d bytes", mtuBytes, 1<<16-1, flitBytes)
	}
	return nil
}

// PacketFlits returns the flits of each packet of one message: full MTU
// packets, then the rest.
func (x *Exchange) PacketFlits() []int32 {
	mtu := (x.MTUBytes + x.FlitBytes - 1) / x.FlitBytes
	var pk []int32
	for left := x.MessageBytes; left > 0; left -= x.MTUBytes {
		b := min(left, x.MTUBytes)
		pk = append(pk, int32(min((b+x.FlitBytes-1)/x.FlitBytes, mtu)))
	}
	return pk
}

// validate checks x for a network of hosts hosts, naming the key at fault.
func (x *Exchange) validate(hosts int) error {
	switch {
	case len(x.Partner) != hosts:
		return keyerr.New("pattern", "%d partners for %d hosts", len(x.Partner), hosts)
	case x.Messages < 1:
		return keyerr.New("messages", "must be at least 1, got %d", x.Messages)
	case x.MessageBytes < 1:
		return keyerr.New("message_bytes", "must be at least 1, got %d", x.MessageBytes)
	}
	if err := checkPacketBytes(x.MTUBytes, x.FlitBytes); err != nil {
		return err
	}
	switch {
	case (x.MessageBytes-1)/x.MTUBytes+1 > MaxMessagePackets:
		return keyerr.New("message_bytes", "%d bytes are more than %d packets of %d bytes", x.MessageBytes, MaxMessagePackets, x.MTUBytes)
	}
	for h, p := range x.Partner {
		if p < -1 || p >= hosts || p == h || (p >= 0 && x.Partner[p] != h) {
			return keyerr.New("pattern", "host %d has partner %d, not a mutual pairing", h, p)
		}
	}
	return nil
}

// ExchangeStats are the measurements of one exchange.
type ExchangeStats struct {
	// PairBandwidth holds, per pair (by the lower host), the bandwidth of
	// the pair as a fraction of the link bandwidth: the flits each side
	// sent divided by the cycles until both sides had received all.
	PairBandwidth []float64
	// Average is the mean of PairBandwidth.
	Average float64
	// Packets counts the packets delivered; OutOfOrder those that arrived
	// after a later packet of their flow, and MaxDisplacement the largest
	// sequence distance of such a packet.
	Packets, OutOfOrder, MaxDisplacement int64
	// RouteChanges counts the route changes of adaptive and probing
	// NICs, Probes the probes sent.
	RouteChanges, Probes int64
	// Cycles is when the last flit arrived.
	Cycles int64
}

// RunExchange runs the exchange x on the network, routing, flow control,
// switches and dispersion of cfg (its load, pattern, phases and packet
// length are not used: packets are sized by x), until every flit has
// arrived, and returns the pairs' bandwidths.
func RunExchange(ctx context.Context, cfg Config, x Exchange) (ExchangeStats, error) {
	if err := x.validate(len(x.Partner)); err != nil {
		return ExchangeStats{}, err
	}
	pk := x.PacketFlits()
	cfg.PacketFlits, cfg.shortest = int(slices.Max(pk)), int(slices.Min(pk))
	cfg.Load = 1
	cfg.Warmup, cfg.Measure, cfg.Drain = 0, maxCycles, 0
	cfg.Outstanding = 0
	if cfg.Net != nil && len(cfg.Net.Hosts) != len(x.Partner) {
		return ExchangeStats{}, keyerr.New("pattern", "%d partners for %d hosts", len(x.Partner), len(cfg.Net.Hosts))
	}
	if err := cfg.ValidateHardware(); err != nil {
		return ExchangeStats{}, err
	}
	p, err := assemble(&cfg)
	if err != nil {
		return ExchangeStats{}, err
	}
	var total int64 // data packets to deliver
	per := int64(0)
	for _, f := range pk {
		per += int64(f)
	}
	per *= int64(x.Messages)
	for h, q := range x.Partner {
		if q >= 0 {
			p.nics[h].StartExchange(nic.Exchange{Dst: q, Messages: x.Messages, Packets: pk}, 0)
			total += int64(x.Messages) * int64(len(pk))
		}
	}
	done := func() bool { return p.meter.DataDelivered == total }
	if err := p.runTo(ctx, maxCycles, done); err != nil {
		return ExchangeStats{}, err
	}
	if !done() {
		return ExchangeStats{}, errors.New("exchange: not finished within the cycle limit")
	}
	var st ExchangeStats
	for h, q := range x.Partner {
		rx := p.nics[h].Received()
		st.Packets += rx.Packets
		st.OutOfOrder += rx.OutOfOrder
		st.MaxDisplacement = max(st.MaxDisplacement, rx.MaxDisplacement)
		st.RouteChanges += p.nics[h].RouteChanges()
		st.Probes += p.nics[h].ProbesSent
		st.Cycles = max(st.Cycles, int64(rx.Last)+1)
		if q > h {
			end := max(rx.Last, p.nics[q].Received().Last) + 1
			st.PairBandwidth = append(st.PairBandwidth, float64(per)/float64(end))
		}
	}
	for _, b := range st.PairBandwidth {
		st.Average += b / float64(len(st.PairBandwidth))
	}
	return st, nil
}

// EBB is the effective bisection bandwidth of seed 001 §5: the average
// pair bandwidth of each pattern (a fraction of the link bandwidth), and
// its minimum, mean and maximum over the patterns; Packets, OutOfOrder,
// RouteChanges and Probes sum ExchangeStats over the patterns, and
// MaxDisplacement is the largest. It is what a results line of kind ebb
// writes.
type EBB = results.Exchange

// Exchange pattern kinds of RunEBB.
const (
	// RandomBisection draws random bisections (traffic.RandomBisection).
	RandomBisection = "bisection"
	// BridgePattern pairs neighbouring leaves (traffic.Bridge); it is one
	// pattern.
	BridgePattern = "bridge"
)

// RunEBB runs the exchange x (whose Partner is ignored) on patterns
// patterns of the given kind: for RandomBisection each drawn from
// cfg.Seed, and seeded apart; BridgePattern is deterministic and runs
// once.
func RunEBB(ctx context.Context, cfg Config, kind string, patterns int, x Exchange) (EBB, error) {
	if cfg.Net == nil {
		return EBB{}, errors.New("topology: missing")
	}
	hosts := len(cfg.Net.Hosts)
	if patterns < 1 {
		return EBB{}, fmt.Errorf("exchange_patterns: must be at least 1, got %d", patterns)
	}
	if kind == BridgePattern {
		patterns = 1
	} else if kind != RandomBisection {
		return EBB{}, fmt.Errorf("exchange: unknown pattern kind %q (known: %s, %s)", kind, RandomBisection, BridgePattern)
	}
	e := EBB{Patterns: patterns}
	base := cfg.Seed
	for i := 0; i < patterns; i++ {
		var err error
		if kind == BridgePattern {
			x.Partner, err = traffic.Bridge(hosts, cfg.Net.HostsPerSwitch)
		} else {
			rng := kernel.NewRNG(base, 4, uint64(i))
			x.Partner, err = traffic.RandomBisection(hosts, &rng)
			cfg.Seed = rng.Uint64()
		}
		if err != nil {
			return EBB{}, err
		}
		st, err := RunExchange(ctx, cfg, x)
		if err != nil {
			return EBB{}, fmt.Errorf("pattern %d: %w", i, err)
		}
		if i == 0 || st.Average < e.Min {
			e.Min = st.Average
		}
		e.Max = max(e.Max, st.Average)
		e.Avg += st.Average / float64(patterns)
		e.Packets += st.Packets
		e.OutOfOrder += st.OutOfOrder
		e.MaxDisplacement = max(e.MaxDisplacement, st.MaxDisplacement)
		e.RouteChanges += st.RouteChanges
		e.Probes += st.Probes
	}
	return e, nil
}
