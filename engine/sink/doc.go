// Package sink is the runtime of INSERT: it writes the rows of bound sinks
// (plan.Sink, as the validator made them) into their tables. Run pumps the
// operators of a statement's sinks into their writers and commits them
// together at the end and, in streaming mode, at every checkpoint
// (Checkpoints); WriteLiteral is the fast physical path of literal rows into a
// table whose catalog keeps its rows; Table turns a sink's resolved target
// into what the connectors open.
package sink
