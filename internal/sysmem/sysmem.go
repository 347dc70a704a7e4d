// Package sysmem tells how much memory this process may use: the
// machine's, or less where a cgroup or an address-space limit says so.
package sysmem

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
)

// Limit returns the bytes this process may use: the least of the
// machine's memory (MemTotal of /proc/meminfo), the cgroup's limit
// (memory.max of cgroup v2, memory.limit_in_bytes of v1) and the
// address-space limit (ulimit -v); 0 when none can be read.
func Limit() int64 {
	var limit int64
	less := func(b int64) {
		if b > 0 && (limit == 0 || b < limit) {
			limit = b
		}
	}
	less(memTotal())
	for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		less(readNumber(f))
	}
	less(addressSpace())
	return limit
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
