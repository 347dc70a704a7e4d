package switching

// Waits calls wait for what each packet in the switch's input buffers
// waits for, as a deadlock report reads the simulation state: a packet in
// progress on output port p and VL v waits for room behind (p, v); a
// head waiting for an output waits for each candidate the routing gives
// it, once per candidate port and output VL (every VL of its class under
// dynamic VL choice). inPort and inVL name the input buffer holding the
// packet. Waits routes the waiting heads again, so it is meant for a
// stopped simulation, not for one in progress.
func (s *Switch) Waits(wait func(inPort, inVL, outPort, outVL int)) {
	for p := range s.out {
		o := &s.out[p]
		for _, li := range o.active[:o.n] {
			wait(int(s.portOf(int32(li))), int(s.vlOf(int32(li))), p, int(s.lanes[li].outVL))
		}
	}
	for li := range s.lanes {
		l := &s.lanes[li]
		if l.state != waiting {
			continue
		}
		inPort, inVL := int(s.portOf(int32(li))), int(s.vlOf(int32(li)))
		rvl := s.routeVL(int32(li))
		s.cand = s.route.Route(int(s.id), inPort, rvl, int(l.sl), l.dlid, s.cand[:0])
		for _, c := range s.cand {
			ovl := s.route.OutVL(int(s.id), inPort, rvl, int(l.sl), int(c.Port))
			if s.classes == nil {
				wait(inPort, inVL, int(c.Port), ovl)
				continue
			}
			lo, hi := s.classes.Range(ovl)
			for v := lo; v < hi; v++ {
				wait(inPort, inVL, int(c.Port), v)
			}
		}
	}
}

// Holds reports whether the input buffer of port inPort and VL vl holds
// flits (those on the wire towards it included).
func (s *Switch) Holds(inPort, vl int) bool {
	base := (int32(inPort)*s.vls + int32(vl)) * s.slots
	for k := int32(0); k < s.slots; k++ {
		if s.lanes[base+k].q.Len() > 0 {
			return true
		}
	}
	return false
}
