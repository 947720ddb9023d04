// Package logictest runs engine behaviour tests written as data: files of
// SQL statements and the answers eddy must give, in the spirit of
// sqllogictest and CockroachDB's logic tests. Each file runs, top to
// bottom, in one fresh engine.Session that the caller opens (over a real
// store); the runner drives it through Session.Execute only, the
// library contract. The package imports engine and engine/types and no
// catalog implementation: choosing the store is the caller's business.
// The files of this package's testdata directory hold the statement
// behaviour tests of package engine; run them with
// "go test ./engine/logictest" and regenerate them with -rewrite.
//
// A file is a list of records separated by blank lines. A line starting
// with '#' outside a record is a comment. The records are:
//
//	statement ok
//	<SQL>
//
// runs one statement (its rows, if any, are read and dropped) and wants
// it to succeed.
//
//	statement error <regexp>
//	<SQL>
//
// wants the statement to fail, when it runs or while its rows are read,
// with an error whose text "Class: Message" (Flink's exception class in
// short form, then its message) matches the regular expression. Without
// a regexp, the exact error text follows a "----" line:
//
//	statement error
//	<SQL>
//	----
//	ValidationException: Column 'nope' not found in any table
//
// query error is a synonym of statement error, for queries.
//
//	query <types> [rowsort] [materialize]
//	<SQL>
//	----
//	<rows>
//
// runs a query and wants its rows. <types> has one letter per column,
// checked against the result's column types, or is "any":
//
//	I  TINYINT, SMALLINT, INT, BIGINT
//	R  FLOAT, DOUBLE, DECIMAL
//	T  CHAR, VARCHAR
//	B  BOOLEAN
//	D  DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ
//	O  any other type (intervals, ARRAY, MAP, ROW, BINARY, ...)
//
// Rows print one a line in a single format shared by every file, values
// as CAST(v AS STRING) gives them (types.ValueString) and NULL as NULL:
// cells joined by " | " for a result that is not a changelog, and Flink's
// changelog form, the row kind then the cells in brackets
// (+I[1, a], -U[1, a], +U[2, a], -D[2, a]), for a query run in streaming
// mode. rowsort sorts the printed rows, for queries whose order is not
// defined. materialize applies a changelog (+I and +U add a row, -U and
// -D remove one) and prints the remaining rows sorted, without kinds: the
// answer a streaming query ends in. A statement without rows (an INSERT
// under table.dml-sync) prints its info message instead.
//
// Expected output ends at the first blank line. Output that holds blank
// lines is written between two "----" lines and two "----" lines:
//
//	query any
//	EXPLAIN PLAN FOR SELECT 1
//	----
//	----
//	== Abstract Syntax Tree ==
//	...
//	----
//	----
//
//	file <name>
//	<content>
//
// writes content (each line ended by a newline) to the file <name> in the
// file's own temporary directory. Every "$DIR" in SQL is replaced by that
// directory, and every occurrence of the directory in an answer is
// printed as "$DIR".
//
//	print-output
//	----
//	<lines>
//
// shows what 'print' sinks wrote since the previous print-output: the
// lines written to standard output, then those written to standard error,
// each prefixed by "stderr: ".
//
// Session settings are statements like any other (statement ok / SET
// 'execution.runtime-mode' = 'batch').
//
// With Config.Rewrite the runner writes the actual answers back into the
// file: the rows and exact error texts after "----" and the column type
// letters. A regexp of an error record and "any" are kept as written;
// a statement that wanted to succeed and failed still fails the test.
// Read the diff of every rewritten file before committing it.
package logictest
