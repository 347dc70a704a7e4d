package topologies

import "fmt"

// field is the finite field GF(q), q = p^k with p prime. Elements are
// numbered 0..q-1 by their coefficients over GF(p): a = Σ a_i·p^i stands
// for the polynomial Σ a_i·x^i modulo a primitive polynomial f of degree
// k, so 0 and 1 are the field's zero and one, and x (or, for k = 1, the
// residue of x modulo f) is the primitive element ξ. f is the first monic
// primitive polynomial in the order of its coefficients' code, so the
// field, and ξ, are the same on every run.
type field struct {
	q, p, k int
	add     []int32 // add[a·q+b] = a + b
	neg     []int32 // neg[a] = −a
	exp     []int32 // exp[i] = ξ^i for 0 ≤ i < q−1
	log     []int32 // log[a] = i with ξ^i = a, for a ≠ 0
}

// primePower returns p and k with q = p^k and p prime, or ok = false.
func primePower(q int) (p, k int, ok bool) {
	if q < 2 {
		return 0, 0, false
	}
	p = q
	for d := 2; d*d <= q; d++ {
		if q%d == 0 {
			p = d
			break
		}
	}
	for q%p == 0 {
		q /= p
		k++
	}
	return p, k, q == 1
}

// newField returns GF(q) for a prime power q.
func newField(q int) (*field, error) {
	p, k, ok := primePower(q)
	if !ok {
		return nil, fmt.Errorf("%d is not a prime power", q)
	}
	f := &field{q: q, p: p, k: k, exp: make([]int32, q-1), log: make([]int32, q)}
	found := false
	// The code Σ c_i·p^i of the lower coefficients of f = x^k + Σ c_i·x^i;
	// c_0 ≠ 0 (else x divides f).
	for code := 1; code < q && !found; code++ {
		if code%p == 0 {
			continue
		}
		found = f.tryPrimitive(code)
	}
	if !found { // cannot happen: every finite field has a primitive element
		return nil, fmt.Errorf("no primitive polynomial of degree %d over GF(%d)", k, p)
	}
	f.add = make([]int32, q*q)
	f.neg = make([]int32, q)
	for a := range q {
		for b := range q {
			f.add[a*q+b] = int32(f.digitwise(a, b, 1))
		}
		f.neg[a] = int32(f.digitwise(0, a, -1))
	}
	return f, nil
}

// tryPrimitive fills exp and log from the powers of x modulo the monic
// polynomial whose lower coefficients have code, and reports whether x has
// order q − 1 there: then the quotient ring has q − 1 distinct units, so it
// is the field and x a primitive element.
func (f *field) tryPrimitive(code int) bool {
	e := 1
	for i := range f.q - 1 {
		if i > 0 && e == 1 {
			return false
		}
		f.exp[i] = int32(e)
		e = f.timesX(e, code)
	}
	if e != 1 {
		return false
	}
	for i, a := range f.exp {
		f.log[a] = int32(i)
	}
	return true
}

// timesX returns a·x modulo x^k + (the polynomial with code code).
func (f *field) timesX(a, code int) int {
	top := a / pow(f.p, f.k-1)           // coefficient of x^(k-1)
	shifted := a % pow(f.p, f.k-1) * f.p // the rest, times x
	// x^k ≡ −Σ c_i·x^i: subtract top·c.
	return f.digitwise(shifted, f.scale(code, top), -1)
}

// scale returns the element a multiplied coefficient-wise by the integer s
// (mod p).
func (f *field) scale(a, s int) int {
	r, place := 0, 1
	for range f.k {
		r += (a % f.p * s % f.p) * place
		a /= f.p
		place *= f.p
	}
	return r
}

// digitwise returns a + sign·b computed coefficient by coefficient mod p.
func (f *field) digitwise(a, b, sign int) int {
	r, place := 0, 1
	for range f.k {
		d := ((a%f.p+sign*(b%f.p))%f.p + f.p) % f.p
		r += d * place
		a /= f.p
		b /= f.p
		place *= f.p
	}
	return r
}

// plus returns a + b.
func (f *field) plus(a, b int) int { return int(f.add[a*f.q+b]) }

// minus returns a − b.
func (f *field) minus(a, b int) int { return int(f.add[a*f.q+int(f.neg[b])]) }

// times returns a·b.
func (f *field) times(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	return int(f.exp[(int(f.log[a])+int(f.log[b]))%(f.q-1)])
}

// power returns ξ^i for any i ≥ 0.
func (f *field) power(i int) int { return int(f.exp[i%(f.q-1)]) }

// pow returns b^e for small non-negative e.
func pow(b, e int) int {
	r := 1
	for range e {
		r *= b
	}
	return r
}
