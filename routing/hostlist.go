package routing

import (
	"fmt"
	"strconv"
	"strings"

	"netsim/internal/fileio"
	"netsim/keyerr"
	"netsim/topologies"
)

// ReadHostList reads a list of hosts as OpenSM's ftree takes its compute
// node and I/O node files (cn_guid_file, io_guid_file): one a line, by CA
// port GUID ("0x0002c9030001d6b1", matched against an ibnetdiscover
// import's port GUIDs) or by host name; blank lines and lines starting
// with '#' are skipped, and text after the first word is ignored. It
// returns a mark per host; an unknown host, a repeated one or an empty
// list is an error naming the file and line.
func ReadHostList(data []byte, file string, net *topologies.Network) ([]bool, error) {
	_, names := net.DisplayNames()
	byName := topologies.IndexNames(names)
	byGUID := map[uint64]int{}
	if x := newIBIndex(net); x != nil {
		byGUID = x.hostByGUID
	}
	hosts, err := topologies.ReadNodeList(data, file, "host", "no hosts (expected one CA port GUID or host name a line)", func(word string) (int, string) {
		if h, ok := byName[word]; ok {
			return h, ""
		}
		if !strings.HasPrefix(strings.ToLower(word), "0x") {
			return 0, fmt.Sprintf("host %q is not in the network (expected a host name or a CA port GUID 0x…)", word)
		}
		g, err := strconv.ParseUint(word[2:], 16, 64)
		if err != nil {
			return 0, fmt.Sprintf("bad GUID %q (expected 0x and at most 16 hexadecimal digits)", word)
		}
		h, ok := byGUID[g]
		if !ok {
			want := "a CA port GUID of the topology file"
			if len(byGUID) == 0 {
				want = "host names: the topology has no GUIDs (an ibnetdiscover import has them)"
			}
			return 0, fmt.Sprintf("port GUID 0x%016x is not in the network (expected %s)", g, want)
		}
		return h, ""
	})
	if err != nil {
		return nil, err
	}
	marked := make([]bool, len(net.Hosts))
	for _, h := range hosts {
		marked[h] = true
	}
	return marked, nil
}

// readHostListFile reads the host list of TOML key key from path.
func readHostListFile(key, path string, net *topologies.Network) ([]bool, error) {
	data, err := fileio.ReadFile(path, fileio.MaxSmall)
	if err != nil {
		return nil, keyerr.New(key, "%w", err)
	}
	return ReadHostList(data, path, net)
}
