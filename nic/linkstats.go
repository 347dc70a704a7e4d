package nic

// CountLinkFlits makes the NIC count the flits it sends on each VL of
// its link (LinkFlits), for the link's utilisation.
func (n *NIC) CountLinkFlits(vls int) { n.linkFlits = make([]int64, vls) }

// LinkFlits returns the flits sent on each VL since CountLinkFlits (nil
// without it). A run counts when it starts.
func (n *NIC) LinkFlits() []int64 { return n.linkFlits }

// Blocked reports whether flow control keeps the NIC from sending: its
// packet in progress, or the next one, has no room at the switch.
func (n *NIC) Blocked() bool { return n.blocked }
