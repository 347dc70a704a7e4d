package experiments

import (
	"context"
	"fmt"

	"netsim/linkload"
	"netsim/nic"
)

// channelBound returns the channel-load bound of e's routing under its
// pattern index pattern (linkload.Loads.Bound: what netsim load prints)
// and whether it bounds the saturation: every flow on one path (parallel
// links to one neighbour, which the selection balances, count as one), no
// lower-priority detours, and NICs that send every packet on its static
// route. Then no load above it can be stable, as the busiest link would
// have to carry more than a flit per cycle. Otherwise (an adaptive
// routing, which may balance its paths better or worse than evenly, or
// take detours) it is only an estimate and ok is false.
func channelBound(ctx context.Context, e *Experiment, pattern int) (bound float64, ok bool, err error) {
	if pairs, _ := e.Unreachable(0); e.NIC.Dispersion != nic.Static || e.closed() || pairs > 0 {
		return 0, false, nil // no bound known (for partial tables: loads are per sending host)
	}
	l := linkload.New(e.Network(), e.RoutingFunc(), e.FlowControl.VLs)
	if err := l.AddPattern(ctx, e.Pattern(pattern), 1); err != nil {
		if ctx.Err() != nil {
			return 0, false, ctx.Err()
		}
		return 0, false, fmt.Errorf("experiment %s: [sweep] bound: channel load of pattern %s: %w",
			e.DisplayName(), e.Traffic.Patterns[pattern], err)
	}
	if l.Spread() || l.Detours() {
		return l.Bound(), false, nil
	}
	return l.Bound(), true, nil
}
