package traffic_test

import (
	"fmt"

	"netsim/kernel"
	"netsim/traffic"
)

func ExampleNewPattern() {
	p, err := traffic.NewPattern("transpose", 16, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	for src := range 4 {
		fmt.Printf("%04b → %04b\n", src, p.Dest(src, nil))
	}
	_, err = traffic.NewPattern("complement", 12, 0)
	fmt.Println(err)
	// Output:
	// 0000 → 0000
	// 0001 → 0100
	// 0010 → 1000
	// 0011 → 1100
	// traffic: pattern "complement" needs a power-of-two host count, got 12 hosts
}

func ExampleBernoulli_Gap() {
	// 0.5 flits/host/cycle offered in 4-flit packets: one packet every
	// 8 cycles on average.
	b, err := traffic.NewBernoulli(0.5, 4)
	if err != nil {
		fmt.Println(err)
		return
	}
	rng := kernel.NewRNG(1, 0) // the stream of host 0
	const packets = 10000
	t := int64(-1) // starting at cycle 0, the first packet is at cycle Gap−1
	for range packets {
		t += b.Gap(&rng) // the cycle the next packet is created
	}
	flits := float64(packets * b.PacketFlits())
	fmt.Printf("generated %.1f flits/cycle over %d packets\n", flits/float64(t+1), packets)
	// Output:
	// generated 0.5 flits/cycle over 10000 packets
}
