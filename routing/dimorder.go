package routing

import "slices"

// mixedOrders is the number of dimension orders Mixed DOR uses: seed 004
// §3.3 sets SL = d mod 4, d the destination's index within its switch.
const mixedOrders = 4

// dimOrders returns up to count distinct dimension orders of nd
// dimensions for Mixed DOR, each a permutation of 0..nd-1 (first entry =
// first dimension to correct).
//
// Seed 004 §3.3 lists, for 4 dimensions numbered from 1, the orders
// (1,2,3,4), (2,4,1,3), (3,1,4,2), (4,3,2,1): order m (m = 1..4) is
// i ↦ m·i mod 5, i = 1..4. The generalisation keeps that rule with p the
// least prime above nd: order m lists m·i mod p for i = 1..p−1, dropping
// values above nd (multiplication by m ≠ 0 permutes 1..p−1, so what is
// left is a permutation of 1..nd). Orders m = 1, 2, … are taken until
// count orders are found or the p−1 multipliers run out; repeats (possible
// only after the dropping) are skipped. Order 0 is always the plain
// ascending order of DOR. So nd = 4 gives the seed's four orders, nd = 1
// one order, nd = 2 the orders (1,2) and (2,1), and nd ≥ 3 at least four.
func dimOrders(nd, count int) [][]int {
	if nd < 1 || count < 1 {
		return nil
	}
	p := nd + 1
	for !isPrime(p) {
		p++
	}
	var orders [][]int
	for m := 1; m < p && len(orders) < count; m++ {
		order := make([]int, 0, nd)
		for i := 1; i < p; i++ {
			if v := m * i % p; v <= nd {
				order = append(order, v-1)
			}
		}
		if !slices.ContainsFunc(orders, func(o []int) bool { return slices.Equal(o, order) }) {
			orders = append(orders, order)
		}
	}
	return orders
}

// isPrime reports whether p is prime (p is small: at most a few dozen).
func isPrime(p int) bool {
	if p < 2 {
		return false
	}
	for q := 2; q*q <= p; q++ {
		if p%q == 0 {
			return false
		}
	}
	return true
}
