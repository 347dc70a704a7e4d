package routing

import (
	"fmt"
	"strconv"
	"strings"

	"netsim/internal/fileio"
	"netsim/keyerr"
	"netsim/topologies"
)

// ReadRoots reads the root switches of Up*/Down* from a file as OpenSM's
// root_guid_file (-a) has them: one switch a line, by node GUID
// ("0x0002c90200421e6a", matched against an ibnetdiscover import's GUIDs)
// or by name (the network's switch names); blank lines and lines starting
// with '#' are skipped. It returns switch indices; an unknown switch, a
// repeated one or an empty file is an error naming the file and line.
func ReadRoots(data []byte, file string, net *topologies.Network) ([]int, error) {
	find := newSwitchFinder(net)
	return topologies.ReadNodeList(data, file, "switch", "no root switches (expected one GUID or switch name a line)", func(word string) (int, string) {
		s, msg, _ := find.switchOf(word)
		return s, msg
	})
}

// readRootsFile reads the roots of Spec.Roots.
func readRootsFile(path string, net *topologies.Network) ([]int, error) {
	data, err := fileio.ReadFile(path, fileio.MaxSmall)
	if err != nil {
		return nil, keyerr.New("roots", "%w", err)
	}
	return ReadRoots(data, path, net)
}

// switchFinder finds the switches a file names by name or node GUID.
type switchFinder struct {
	byName map[string]int
	byGUID map[uint64]int
}

// newSwitchFinder indexes net's switch names and, on an ibnetdiscover
// import, their node GUIDs.
func newSwitchFinder(net *topologies.Network) switchFinder {
	swNames, _ := net.DisplayNames()
	f := switchFinder{byName: topologies.IndexNames(swNames), byGUID: map[uint64]int{}}
	if x := newIBIndex(net); x != nil {
		f.byGUID = x.swByGUID
	}
	return f
}

// switchOf returns the switch word names (a switch name, or a node GUID
// "0x…"), or a message saying why word names none, with absent set when
// word is well formed but names no switch of the network.
func (f switchFinder) switchOf(word string) (s int, msg string, absent bool) {
	if s, ok := f.byName[word]; ok {
		return s, "", false
	}
	if !strings.HasPrefix(strings.ToLower(word), "0x") {
		return 0, fmt.Sprintf("switch %q is not in the network (expected a switch name or a node GUID 0x…)", word), true
	}
	g, err := strconv.ParseUint(word[2:], 16, 64)
	if err != nil {
		return 0, fmt.Sprintf("bad GUID %q (expected 0x and at most 16 hexadecimal digits)", word), false
	}
	s, ok := f.byGUID[g]
	if !ok {
		want := "a switch's node GUID in the topology file"
		if len(f.byGUID) == 0 {
			want = "switch names: the topology has no GUIDs (an ibnetdiscover import has them)"
		}
		return 0, fmt.Sprintf("switch GUID 0x%016x is not in the network (expected %s)", g, want), true
	}
	return s, "", false
}
