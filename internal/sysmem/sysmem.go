// Package sysmem tells how much memory this process may use: the
// machine's, or less where a cgroup or an address-space limit says so.
package sysmem

import (
	"bufio"
	"bytes"
	"os"
	"path"
	"strconv"
	"strings"
)

// Limit returns the bytes this process may use: the least of the
// machine's memory (MemTotal of /proc/meminfo), the limits of its cgroup
// and the cgroups above it (memory.max of cgroup v2,
// memory.limit_in_bytes of v1, as /proc/self/cgroup places the process:
// a Slurm job's, a container's) and the address-space limit (ulimit -v);
// 0 when none can be read.
func Limit() int64 {
	var limit int64
	less := func(b int64) {
		if b > 0 && (limit == 0 || b < limit) {
			limit = b
		}
	}
	less(memTotal())
	for _, f := range cgroupLimitFiles() {
		less(readNumber(f))
	}
	less(addressSpace())
	return limit
}

// cgroupLimitFiles returns the memory limit files of the process's
// cgroup and of every cgroup above it, v2 and v1.
func cgroupLimitFiles() []string {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil
	}
	var files []string
	for _, line := range strings.Split(string(data), "\n") {
		// "0::/path" (v2) or "N:memory:/path" (v1).
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		root, name := "", ""
		switch {
		case f[1] == "":
			root, name = "/sys/fs/cgroup", "memory.max"
		case strings.Contains(","+f[1]+",", ",memory,"):
			root, name = "/sys/fs/cgroup/memory", "memory.limit_in_bytes"
		default:
			continue
		}
		for p := path.Clean("/" + f[2]); ; p = path.Dir(p) {
			files = append(files, root+strings.TrimSuffix(p, "/")+"/"+name)
			if p == "/" {
				break
			}
		}
	}
	return files
}

// memTotal reads MemTotal from /proc/meminfo.
func memTotal() int64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// readNumber reads a file holding one number of bytes ("max" and the
// like read as 0).
func readNumber(path string) int64 {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil || n >= 1<<60 {
		return 0
	}
	return n
}
