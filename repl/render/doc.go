// Package render turns engine results and errors into the console text of
// the Flink SQL client: tableau tables (+---+ borders, right-aligned cells,
// "N rows in set"), the streaming changelog view with its op column,
// "[INFO] ..." acknowledgements and "[ERROR] ... Reason:" blocks, and the
// tag (ok, info, warning, error) that tells how the client colours an
// answer. Every console string lives in messages.go. Besides the Flink
// layouts it writes the output formats csv, tsv, json, jsonl, markdown (with
// go-pretty) and vertical.
//
// render knows nothing of the loop that reads statements: it writes to an
// io.Writer. It may import engine/result, engine/sqlerr
// and engine/types only (and go-pretty); it must not import repl, conf,
// catalogs, the engine root or any package of the local engine (a test
// checks the last).
package render
