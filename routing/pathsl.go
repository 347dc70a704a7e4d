package routing

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"netsim/topologies"
)

// ReadPathSLs reads the SLs of paths from r (file names it in errors) as
// saquery prints PathRecords ("saquery -p --slid S --dlid D" for each pair
// of CA LIDs, concatenated): "PathRecord dump:" blocks whose slid, dlid
// and sl fields give the SL of the path from LID slid to LID dlid. LIDs
// are matched to hosts by the LIDs of net's ibnetdiscover import (net.IB).
// It returns sls[src·hosts+dst], noSL where no record gives the pair.
// Records for LIDs that are no host (a switch's) are skipped; a LID the
// network lacks, a record without slid, dlid or sl, and two SLs for one
// pair are errors naming the file and line.
func ReadPathSLs(r io.Reader, file string, net *topologies.Network) ([]uint8, error) {
	x := newIBIndex(net)
	if x == nil {
		return nil, topologies.FileErrorf(file, 0, "path records name hosts by LID (expected a topology imported from ibnetdiscover output, which gives the LIDs)")
	}
	hosts := len(net.Hosts)
	known := func(lid int) bool { _, ok := x.byLID[lid]; return ok }
	sls := make([]uint8, hosts*hosts)
	from := make([]int32, hosts*hosts) // the line of each pair's record
	for i := range sls {
		sls[i] = noSL
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	type record struct{ slid, dlid, sl, line int }
	rec := record{slid: -1, dlid: -1, sl: -1}
	line := 0
	flush := func() error {
		if rec.line == 0 {
			return nil
		}
		defer func() { rec = record{slid: -1, dlid: -1, sl: -1} }()
		switch {
		case rec.slid == 0 || rec.dlid == 0:
			return nil // no path (saquery ends some answers with an empty record)
		case rec.slid < 0 || rec.dlid < 0 || rec.sl < 0:
			return topologies.FileErrorf(file, rec.line, "PathRecord without slid, dlid or sl (expected saquery -p output)")
		case !known(rec.slid) || !known(rec.dlid):
			lid := rec.slid
			if known(lid) {
				lid = rec.dlid
			}
			return topologies.FileErrorf(file, rec.line, "LID %d is no node of the network (expected the LIDs of the topology file)", lid)
		case rec.sl >= MaxSLs:
			return topologies.FileErrorf(file, rec.line, "SL %d (expected 0-%d)", rec.sl, MaxSLs-1)
		}
		src, dst := x.byLID[rec.slid], x.byLID[rec.dlid]
		if src >= hosts || dst >= hosts {
			return nil // a switch's path
		}
		i := src*hosts + dst
		if sls[i] != noSL && int(sls[i]) != rec.sl {
			return topologies.FileErrorf(file, rec.line, "SL %d for the path from LID %d to LID %d, but SL %d at line %d (expected one SL per path)", rec.sl, rec.slid, rec.dlid, sls[i], from[i])
		}
		sls[i], from[i] = uint8(rec.sl), int32(rec.line)
		return nil
	}
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "PathRecord dump:" {
			if err := flush(); err != nil {
				return nil, err
			}
			rec.line = line
			continue
		}
		key, val, ok := strings.Cut(text, "..")
		if !ok || rec.line == 0 {
			continue // other output (ibwarn lines, …)
		}
		val = strings.TrimLeft(val, ".")
		var dst *int
		switch key {
		case "slid":
			dst = &rec.slid
		case "dlid":
			dst = &rec.dlid
		case "sl":
			dst = &rec.sl
		default:
			continue
		}
		n, err := strconv.ParseInt(val, 0, 32)
		if err != nil || n < 0 {
			return nil, topologies.FileErrorf(file, line, "bad %s %q (expected a number)", key, val)
		}
		*dst = int(n)
	}
	if err := sc.Err(); err != nil {
		return nil, topologies.FileErrorf(file, line+1, "%v", err)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return sls, nil
}
