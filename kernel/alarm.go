package kernel

// Alarm is a component's next wake-up. Components ask to be woken at many
// times (a flit arriving, a credit returning, a routing delay ending); an
// Alarm keeps only the earliest: a request later than the pending one is
// absorbed, an earlier one schedules a new event, and the superseded event
// is recognised and ignored when it fires. It is a value type to embed in
// the component.
type Alarm struct {
	eng *Engine
	ev  Event
	at  Time
}

// NewAlarm returns an unset alarm that schedules ev on eng.
func NewAlarm(eng *Engine, ev Event) Alarm { return Alarm{eng: eng, ev: ev, at: Never} }

// Set makes sure the alarm fires at or before t.
func (a *Alarm) Set(t Time) {
	if t < a.at {
		a.at = t
		a.eng.Schedule(t, a.ev)
	}
}

// Ring reports whether an event of the alarm firing at now is the live
// wake-up, and if so clears the alarm so the component can set it again.
func (a *Alarm) Ring(now Time) bool {
	if now != a.at {
		return false
	}
	a.at = Never
	return true
}
