package nic

import "netsim/kernel"

// Message is a message of a workload (package workload) that a NIC sends:
// Packets packets to host Dst, each of Flits flits but the last, of
// LastFlits. Its packets carry ID as their sequence number.
type Message struct {
	Dst, ID                   int32
	Packets, Flits, LastFlits int32
}

// MessageSink follows the packets of the messages NICs send
// (SendMessage): when each one's tail leaves its source and when it
// arrives at its destination. A NIC with a sink reports every data packet
// it receives to it.
type MessageSink interface {
	// Departed says the tail of a packet of message id leaves its NIC at
	// at (at or after the current cycle).
	Departed(id int32, at kernel.Time)
	// Arrived says the tail of a packet of message id reaches its
	// destination's NIC at at (at or after the current cycle).
	Arrived(id int32, at kernel.Time)
}

// SetSink makes the NIC report its messages' packets to s.
func (n *NIC) SetSink(s MessageSink) { n.sink = s }

// SendMessage queues message m at now: its packets are created one at a
// time when the link can take them, after the messages queued before it,
// as an exchange's are.
func (n *NIC) SendMessage(m Message, now kernel.Time) {
	n.outMsgs.Push(m)
	n.alarm.Set(now)
}

// nextMessage queues the next packet of the oldest message.
func (n *NIC) nextMessage(now kernel.Time) {
	m := n.outMsgs.At(0)
	flits := m.Flits
	if m.Packets == 1 {
		flits = m.LastFlits
	}
	dlid, sl, vl := n.route.Source(int(n.host), int(m.Dst))
	pi := n.newPacket(m.Dst, dlid, sl, vl, flits, m.ID, now)
	if m.Packets--; m.Packets == 0 {
		n.outMsgs.Pop()
	}
	n.push(pi)
}
