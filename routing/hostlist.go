package routing

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"

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
	byName := indexNames(names)
	byGUID := map[uint64]int{}
	if x := newIBIndex(net); x != nil {
		byGUID = x.hostByGUID
	}
	marked := make([]bool, len(net.Hosts))
	seen := map[int]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	line, count := 0, 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		word := strings.Fields(text)[0]
		h, ok := byName[word]
		if !ok && strings.HasPrefix(strings.ToLower(word), "0x") {
			g, err := strconv.ParseUint(word[2:], 16, 64)
			if err != nil {
				return nil, topologies.FileErrorf(file, line, "bad GUID %q (expected 0x and at most 16 hexadecimal digits)", word)
			}
			if h, ok = byGUID[g]; !ok {
				want := "a CA port GUID of the topology file"
				if len(byGUID) == 0 {
					want = "host names: the topology has no GUIDs (an ibnetdiscover import has them)"
				}
				return nil, topologies.FileErrorf(file, line, "port GUID 0x%016x is not in the network (expected %s)", g, want)
			}
		} else if !ok {
			return nil, topologies.FileErrorf(file, line, "host %q is not in the network (expected a host name or a CA port GUID 0x…)", word)
		}
		if first, dup := seen[h]; dup {
			return nil, topologies.FileErrorf(file, line, "host %s is listed twice (first at line %d)", word, first)
		}
		seen[h] = line
		marked[h] = true
		count++
	}
	if err := sc.Err(); err != nil {
		return nil, topologies.FileErrorf(file, line+1, "%v", err)
	}
	if count == 0 {
		return nil, topologies.FileErrorf(file, 0, "no hosts (expected one CA port GUID or host name a line)")
	}
	return marked, nil
}

// readHostListFile reads the host list of TOML key key from path.
func readHostListFile(key, path string, net *topologies.Network) ([]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, keyerr.New(key, "%w", err)
	}
	return ReadHostList(data, path, net)
}
