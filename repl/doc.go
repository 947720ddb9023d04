// Package repl is eddy's shell: it reads statements (readline at a
// terminal, a plain buffered reader for piped input and files), splits them
// with the parser's lexer (parser.Split — never a splitter of its own),
// answers the client commands HELP, QUIT, EXIT and CLEAR itself, sends every
// other statement to the Session, and prints the answer through
// repl/render. It keeps the history file, turns Ctrl-C into the
// cancellation of the running statement, and decides the exit status.
//
// repl has no SQL semantics: what a statement means is the engine's
// business. It may import engine, engine/parser, repl/render and conf; it
// must not import catalogs or any concrete engine package.
package repl
