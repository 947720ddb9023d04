// Package gcpace paces the Go garbage collector for a process that runs
// queries. With the runtime's default pace (GOGC=100) a heap whose live
// part is a megabyte or two is collected every 4 MB of allocation: a scan
// that decodes a million rows into short-lived batches runs a collection
// every few milliseconds, and each one marks the program's globals and
// stacks again, however little of the heap is live.
//
// A Pacer gives the heap a floor instead: while the live heap is small
// the next collection waits until the heap reaches the floor; once twice
// the live heap is above the floor the runtime's own pace (GOGC=100)
// holds unchanged. A query that holds a lot of memory therefore peaks
// where it did, and one that holds little spends a bounded amount more
// (the floor) to collect several times less often. Nothing is set
// process-wide until Start, and Stop gives the runtime its pace back.
package gcpace
