// Package keyerr defines the error of one configuration key: the error a
// package that builds from a configuration (a topology, a routing, a
// fabric, ...) returns when the value of a TOML key of an experiment file
// is at fault, so that callers find the key with errors.As rather than
// by reading it back from the text.
//
// The message of such an error is the key, ": " and what is wrong with
// it, as in "dims: need at least one dimension". Keys that are only
// wrong together are named together, joined by "/": "dims/widths: ...".
// An error about one element of an array of tables, such as a factor of
// a product topology, names the array's key ("factors"), the element and
// the element's own error, itself usually a key error naming a key of
// the element's table:
//
//	factors: factor 2 (slimfly): q: 6 is not a prime power
//
// A function that adds context to a key error returns a key error
// itself (New with %w, under the same key or another one), not a plain
// fmt.Errorf wrapper: errors.As sees through any wrapper, and a caller
// reports the Msg of the key error it finds.
package keyerr
