// Package repl is eddy's shell: it reads statements (readline at a
// terminal, a plain buffered reader for piped input and files), splits them
// with the parser's lexer (parser.Split — never a splitter of its own),
// answers the client commands HELP, QUIT, EXIT, CLEAR and SOURCE 'file'
// itself, sends every other statement to the Session, and prints the answer
// through repl/render. It keeps the history file, turns Ctrl-C into the
// cancellation of the running statement, and decides the exit status.
//
// At a terminal it also completes the word at the cursor on Tab (from the
// lexer's tokens and names the session reads live from its catalogs),
// colours SQL as it is typed, draws the prompt from
// sql-client.display.prompt, and shows a status line on standard error
// while a statement runs longer than a second.
//
// repl has no SQL semantics: what a statement means is the engine's
// business. It may import engine, engine/parser, repl/render and conf; it
// must not import catalogs or any concrete engine package.
package repl
