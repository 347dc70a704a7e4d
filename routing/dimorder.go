package routing

// mixedOrders caps the dimension orders Mixed DOR uses on a hypercube:
// seed 004 §3.3 sets SL = d mod 4, d the destination's index within its
// switch.
const mixedOrders = 4

// dimOrders returns the dimension orders Mixed DOR chooses from on a
// network of n ≥ 1 dimensions (0-based): n orders, each a permutation of
// 0..n-1, forming a Latin square (every dimension comes first, second, …,
// last in exactly one order), so that the load on each part of a switch's
// crossbar — host to dimension, dimension to dimension, dimension to host —
// is spread as evenly as the number of orders allows.
//
//   - When n+1 is a prime p, order k (k = 1..n) is (k·1, k·2, …, k·n) mod p,
//     minus one. For n = 4 these are seed 004's orders (1,2,3,4),
//     (2,4,1,3), (3,1,4,2), (4,3,2,1); for n = 2 they are (1,2), (2,1).
//   - Otherwise order i (i = 0..n-1) is i + (0, 1, n−1, 2, n−2, …) mod n,
//     Williams' construction.
//
// For even n both are row-complete: every ordered pair of dimensions is
// consecutive in exactly one order, so every dimension-to-dimension
// crossbar part is used by exactly one order (the property of the seed's
// four orders, which it found by integer programming). For odd n > 1 no
// row-complete square of order 3, 5 or 7 exists; the Williams rows are then
// the n cyclic shifts of one sequence, and each dimension-to-dimension
// transition they use is used by two of them.
func dimOrders(n int) [][]int {
	orders := make([][]int, n)
	if isPrime(n + 1) {
		p := n + 1
		for k := 1; k <= n; k++ {
			o := make([]int, n)
			for j := 1; j <= n; j++ {
				o[j-1] = k*j%p - 1
			}
			orders[k-1] = o
		}
		return orders
	}
	base := make([]int, n) // 0, 1, n−1, 2, n−2, …
	lo, hi := 1, n-1
	for j := 1; j < n; j++ {
		if j%2 == 1 {
			base[j], lo = lo, lo+1
		} else {
			base[j], hi = hi, hi-1
		}
	}
	for i := range n {
		o := make([]int, n)
		for j, b := range base {
			o[j] = (i + b) % n
		}
		orders[i] = o
	}
	return orders
}

// isPrime reports whether n is a prime.
func isPrime(n int) bool {
	if n < 2 {
		return false
	}
	for d := 2; d*d <= n; d++ {
		if n%d == 0 {
			return false
		}
	}
	return true
}
