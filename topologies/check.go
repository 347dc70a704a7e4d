package topologies

import (
	"reflect"
	"strings"

	"netsim/keyerr"
)

// specKey is a key of [topology] and whether a Spec sets it.
type specKey struct {
	key string
	set bool
}

// Keys returns the keys of the [topology] section, the toml tags of
// Spec's fields, in the order of Spec.
func Keys() []string {
	t := reflect.TypeFor[Spec]()
	keys := make([]string, t.NumField())
	for i := range keys {
		keys[i] = t.Field(i).Tag.Get("toml")
	}
	return keys
}

// specKeys lists the keys of [topology] that s sets or leaves unset
// (kind and preset aside), in the order of Spec.
func specKeys(s Spec) []specKey {
	v := reflect.ValueOf(s)
	var keys []specKey
	for i, k := range Keys() {
		if k != "kind" && k != "preset" {
			keys = append(keys, specKey{k, !v.Field(i).IsZero()})
		}
	}
	return keys
}

// anyKeyGiven reports whether s sets one of keys, written as in messages
// ("dims/widths" names two).
func anyKeyGiven(s Spec, keys string) bool {
	for k := range strings.SplitSeq(keys, "/") {
		if keyGiven(s, k) {
			return true
		}
	}
	return false
}

// keyGiven reports whether s sets key.
func keyGiven(s Spec, key string) bool {
	for _, k := range specKeys(s) {
		if k.key == key {
			return k.set
		}
	}
	return false
}

// checkUsed reports the first key set in s that its kind does not use
// (UsedKeys).
func checkUsed(s Spec) error {
	if errs := UnusedKeys(s); len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// sizeKey is the key to blame for too many ports in a family sized by key
// whose links are width wide: width when it is set above 1, else key.
func sizeKey(key string, width int) string {
	if width > 1 {
		return "width"
	}
	return key
}

// checkCount reports whether v, the value of key, lies in [lo, hi].
func checkCount(key string, v, lo, hi int) error {
	if v < lo {
		return keyerr.New(key, "need at least %d, got %d", lo, v)
	}
	if v > hi {
		return keyerr.New(key, "%d exceeds the limit of %d", v, hi)
	}
	return nil
}

// checkEntries reports whether every entry of the list key lies in [lo, hi].
func checkEntries(key string, list []int, lo, hi int) error {
	for i, v := range list {
		if v < lo {
			return keyerr.New(key, "element %d is %d, need at least %d", i+1, v, lo)
		}
		if v > hi {
			return keyerr.New(key, "element %d is %d, exceeds the limit of %d", i+1, v, hi)
		}
	}
	return nil
}

// widthsFor returns the link widths for n dimensions: widths itself when
// given (it must then have n entries, each in [1, MaxPorts]), else all 1.
func widthsFor(widths []int, n int) ([]int, error) {
	if widths == nil {
		w := make([]int, n)
		for i := range w {
			w[i] = 1
		}
		return w, nil
	}
	if len(widths) != n {
		return nil, keyerr.New("widths", "has %d entries but dims has %d", len(widths), n)
	}
	if err := checkEntries("widths", widths, 1, MaxPorts); err != nil {
		return nil, err
	}
	return append([]int(nil), widths...), nil
}

// checkTotals reports whether switches switches of radix ports each, with
// hostsPerSwitch hosts each, stay within MaxHosts and MaxPorts. Every
// argument must already be at most its own limit, so nothing overflows.
func checkTotals(switches, radix, hostsPerSwitch int, hostsKey, linksKey string) error {
	if h := switches * hostsPerSwitch; h > MaxHosts {
		return keyerr.New(hostsKey, "%d hosts per switch on %d switches gives %d hosts, more than the limit of %d",
			hostsPerSwitch, switches, h, MaxHosts)
	}
	if radix > MaxPorts {
		return keyerr.New(linksKey, "radix %d exceeds the limit of %d ports", radix, MaxPorts)
	}
	if p := switches * radix; p > MaxPorts {
		return keyerr.New(linksKey, "radix %d on %d switches gives %d ports, more than the limit of %d",
			radix, switches, p, MaxPorts)
	}
	return nil
}
