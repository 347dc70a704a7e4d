package switching

import "netsim/kernel"

// CountLinkFlits makes the switch count the flits it sends out of each
// port on each VL (LinkFlits), for the links' utilisation.
func (s *Switch) CountLinkFlits() {
	s.linkFlits = make([]int64, len(s.sel)*int(s.vls))
}

// LinkFlits returns the flits sent out of each port on each VL since
// CountLinkFlits, at index port·VLs + VL (nil without it). A run counts
// when it starts.
func (s *Switch) LinkFlits() []int64 { return s.linkFlits }

// Held returns the output VLs of port p a packet holds, as a bit set.
func (s *Switch) Held(p int) uint16 { return s.sel[p].held }

// Stalled reports whether output port p's VL vl is held by a packet that
// flow control keeps from sending at now: no credit, or STOP.
func (s *Switch) Stalled(now kernel.Time, p, vl int) bool {
	sel := &s.sel[p]
	return sel.held&(1<<vl) != 0 && sel.fc.Burst(now, vl) <= 0
}
