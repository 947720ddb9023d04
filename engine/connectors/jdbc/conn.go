package jdbc

import (
	"context"
	"errors"
	"time"

	"eddy/engine/connectors"
	"eddy/engine/types"
)

// connectTimeout bounds one connection attempt (the PostgreSQL JDBC
// driver's default connectTimeout), never more than the table's
// connection.max-retry-timeout.
const connectTimeout = 10 * time.Second

// conn is one open connection to a database, whatever its driver: the
// reader, the writer, the lookup reader and the catalog speak to the
// database only through it.
type conn interface {
	// query runs a SELECT with its arguments (values the dialect's param
	// made) and returns its rows.
	query(ctx context.Context, q string, args []any) (rowIter, error)
	// beginRead opens a read-only transaction the next queries run in
	// (scan.auto-commit = false).
	beginRead(ctx context.Context) error
	// writeTx runs the statements in one transaction and commits it. With
	// each, a statement the database refuses returns its index (-1 for any
	// other failure) and the transaction is rolled back.
	writeTx(ctx context.Context, stmts []stmt, each bool) (int, error)
	// closed reports whether the connection was lost.
	closed() bool
	close() error
}

// stmt is a statement and its arguments.
type stmt struct {
	sql  string
	args []any
}

// rowIter is the rows of a query.
type rowIter interface {
	next() bool
	// width is the number of columns of a row.
	width() int
	// row converts the current row's columns into dst as the engine values
	// of ts; a value a column cannot take returns the column's index.
	row(ts []*types.Type, dst []any) (int, error)
	err() error
	close()
}

// connect opens a connection to the table's database. A failure names the
// host, port, database and user, never the password, and comes within
// the connect timeout.
func (s *spec) connect(ctx context.Context) (conn, error) {
	return connectURL(ctx, s.url, s.user, s.pass, s.maxRetryTimeout)
}

func connectURL(ctx context.Context, u *dbURL, user, pass string, limit time.Duration) (conn, error) {
	if user == "" {
		user = u.params.Get("user")
	}
	if pass == "" {
		pass = u.params.Get("password")
	}
	return u.dialect.connect(ctx, u, user, pass, min(connectTimeout, limit))
}

// connectError is a failed connection: Flink reports an SQLException from
// the driver; its text here names where eddy tried to connect.
func connectError(u *dbURL, user, cause string) error {
	return &connectors.Error{Exception: "SQLException", Msg: "Failed to connect to the " + u.dialect.name() + " database '" +
		u.database + "' at " + u.address() + " as user '" + user + "': " + cause}
}

// dbError wraps an error of a statement as the database's own error.
func (s *spec) dbError(what string, err error) error {
	if err == nil {
		return nil
	}
	var ce *connectors.Error
	if errors.As(err, &ce) || errors.Is(err, context.Canceled) {
		return err
	}
	return &connectors.Error{Exception: "SQLException", Msg: what + " " + s.table + " of " + s.url.dialect.name() +
		" database '" + s.url.database + "' at " + s.url.address() + ": " + s.dialect.errorText(err)}
}

// transient reports whether err is a lost connection or a server going
// away, after which a write is retried on a new connection.
func (s *spec) transient(err error) bool { return s.dialect.transient(err) }
