//go:build !unix

package bench

import "time"

// usage reports that this system does not say (see usage_unix.go).
func usage() (cpu time.Duration, peak int64, ok bool) { return 0, 0, false }
