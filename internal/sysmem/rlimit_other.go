//go:build !unix

package sysmem

// addressSpace returns 0: no address-space limit is read here.
func addressSpace() int64 { return 0 }
