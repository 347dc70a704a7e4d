package fabric

import (
	"fmt"
	"unsafe"

	"netsim/flit"
	"netsim/kernel"
	"netsim/nic"
	switching "netsim/switch"
)

// Memory is what simulating a point of a configuration allocates, in
// bytes, by part: the switches (ports, lanes, buffers and their state),
// the NICs (with their per-destination tables of dispersion), the packets
// the buffers can hold, and the kernel (event wheels, tick sets). The
// network and its routing, built before, are not counted; nor are source
// queues, which grow with a point's backlog.
type Memory struct {
	Switches, NICs, Packets, Kernel int64
}

// Total returns the bytes of every part.
func (m Memory) Total() int64 { return m.Switches + m.NICs + m.Packets + m.Kernel }

// String writes m as "2.3 GiB (switches 2.1 GiB, NICs 0.2 GiB, …)".
func (m Memory) String() string {
	return fmt.Sprintf("%s (switches %s, NICs %s, packets %s, kernel %s)",
		GiB(m.Total()), GiB(m.Switches), GiB(m.NICs), GiB(m.Packets), GiB(m.Kernel))
}

// GiB writes a byte count in GiB, or MiB below one GiB.
func GiB(b int64) string {
	if b < 1<<30 {
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%.2f GiB", float64(b)/(1<<30))
}

// EstimateMemory returns what simulating a point of cfg will allocate,
// computed from the sizes of what assemble allocates, without allocating
// it; the network and routing of cfg must be set.
func EstimateMemory(cfg Config) Memory {
	var m Memory
	if cfg.Net == nil {
		return m
	}
	shortest := cfg.shortestPacket()
	params := cfg.allSwitchParams(cfg.Switching, cfg.Selection, shortest, nil)
	m.Switches = switching.StorageBytes(params)
	var buffered int64 // flits the buffers hold when full
	for _, p := range params {
		m.Switches += p.Bytes() + int64(unsafe.Sizeof(&switching.Switch{}))
		buffered += int64(p.Ports) * int64(p.VLs) * int64(p.Buffer)
	}
	hosts := int64(len(cfg.Net.Hosts))
	queues := int64(cfg.VLs)
	perNIC := int64(unsafe.Sizeof(nic.NIC{})) + queues*24 + int64(unsafe.Sizeof(&nic.NIC{}))
	if d := cfg.Dispersion.Mode; d == nic.Adaptive || d == nic.Probing {
		perNIC += hosts * (4 + 2) // the route and the stops per destination
		if d == nic.Probing {
			perNIC += hosts * 16
		}
	}
	if cfg.Outstanding > 0 {
		perNIC += int64(cfg.Outstanding) * (4 + 8 + 1)
	}
	m.NICs = hosts * perNIC
	// The packets of full buffers, and a few a host in its source queue
	// and on its links, in chunks of the pool.
	packets := buffered/int64(max(shortest, 1)) + 4*hosts
	chunk := int64(flit.ChunkPackets) * int64(unsafe.Sizeof(flit.Packet{}))
	m.Packets = (packets*int64(unsafe.Sizeof(flit.Packet{}))/chunk + 1) * chunk
	threads := int64(min(max(cfg.Threads, 1), len(cfg.Net.Switches)))
	components := int64(len(cfg.Net.Switches)) + hosts
	m.Kernel = threads * (int64(kernel.DefaultWheelSize)*(24+8) + 2*(components+63)/64*8)
	return m
}
