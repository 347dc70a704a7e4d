package kernel

import "testing"

type alarmModel struct {
	alarm Alarm
	rang  []Time
	then  map[Time]Time // when ringing at key, set the alarm to value
}

func (m *alarmModel) Handle(now Time, _ Event) {
	if !m.alarm.Ring(now) {
		return
	}
	m.rang = append(m.rang, now)
	if t, ok := m.then[now]; ok {
		m.alarm.Set(t)
	}
}

func TestAlarmCoalesces(t *testing.T) {
	m := &alarmModel{then: map[Time]Time{3: 9}}
	eng := NewEngine(m)
	m.alarm = NewAlarm(eng, Event{})
	m.alarm.Set(10)
	m.alarm.Set(12) // later: absorbed
	m.alarm.Set(3)  // earlier: supersedes 10
	m.alarm.Set(3)  // same: absorbed
	if err := eng.Run(100); err != nil {
		t.Fatal(err)
	}
	// 3 rings and sets 9; the stale events at 10 and 12 are ignored.
	want := []Time{3, 9}
	if len(m.rang) != len(want) || m.rang[0] != want[0] || m.rang[1] != want[1] {
		t.Fatalf("rang at %v, want %v", m.rang, want)
	}
	if eng.Events() != 3 {
		t.Fatalf("%d events fired, want 3 (at 3, 9 and the stale 10)", eng.Events())
	}
}
