package topologies

import (
	"strconv"
	"strings"

	"netsim/keyerr"
)

// leafSplit splits the ports of a leaf switch into d host ports and u
// uplinks by the oversubscription over, the ratio D:U of host ports to
// uplinks written "D:U" ("" means "1:1"): d = ports·D/(D+U) must be whole.
// portsKey
// names the key the port count comes from, for the error when the default
// 1:1 split is impossible.
func leafSplit(over string, ports int, portsKey string) (d, u int, err error) {
	if over == "" {
		if ports%2 != 0 {
			return 0, 0, keyerr.New(portsKey, "a leaf of %d ports cannot give half to hosts and half to uplinks (set oversubscription to split it otherwise)", ports)
		}
		return ports / 2, ports / 2, nil
	}
	hd, hu, ok := parseRatio(over)
	if !ok {
		return 0, 0, keyerr.New("oversubscription", "want \"D:U\", host ports to uplinks of a leaf as positive integers (such as \"2:1\"), got %q", over)
	}
	if ports*hd%(hd+hu) != 0 {
		return 0, 0, keyerr.New("oversubscription", "%s does not split the %d ports of a leaf into whole numbers of host ports and uplinks", over, ports)
	}
	d = ports * hd / (hd + hu)
	return d, ports - d, nil
}

// parseRatio parses "D:U" with D and U integers in [1, MaxPorts].
func parseRatio(s string) (d, u int, ok bool) {
	a, b, found := strings.Cut(s, ":")
	if !found {
		return 0, 0, false
	}
	d, err1 := strconv.Atoi(a)
	u, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || d < 1 || u < 1 || d > MaxPorts || u > MaxPorts {
		return 0, 0, false
	}
	return d, u, true
}
