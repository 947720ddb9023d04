package jdbc

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"eddy/engine/connectors"
	"eddy/engine/types"
)

// dbURL is a parsed JDBC URL: jdbc:postgresql:// or
// jdbc:mysql://host[:port][/database][?k=v&...].
type dbURL struct {
	raw      string
	dialect  dialect
	host     string
	port     int
	database string
	params   url.Values
}

// address is host:port, for messages.
func (u *dbURL) address() string { return net.JoinHostPort(u.host, strconv.Itoa(u.port)) }

// parseURL reads a JDBC URL and picks its dialect, failing with Flink's
// JdbcFactoryLoader text for a URL no dialect handles.
func parseURL(raw string) (*dbURL, error) {
	var d dialect
	for _, c := range dialects() {
		if c.canHandle(raw) {
			d = c
			break
		}
	}
	if d == nil {
		names := make([]string, 0)
		for _, c := range dialects() {
			names = append(names, c.factoryName())
		}
		return nil, illegalState(fmt.Sprintf(
			"Could not find any jdbc dialect factory that can handle url '%s' that implements 'org.apache.flink.connector.jdbc.core.database.JdbcFactory' in the classpath.\n\nAvailable factories are:\n\n%s",
			raw, strings.Join(names, "\n")))
	}
	rest := strings.TrimPrefix(raw, "jdbc:")
	u, err := url.Parse(rest)
	if err != nil || u.Host == "" {
		return nil, validationError("Invalid JDBC URL '%s': expected %s//host[:port]/database.", raw, d.prefix())
	}
	out := &dbURL{raw: raw, dialect: d, host: u.Hostname(), port: d.defaultPort(), database: strings.TrimPrefix(u.Path, "/"), params: u.Query()}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil {
			return nil, validationError("Invalid JDBC URL '%s': bad port '%s'.", raw, p)
		}
		out.port = n
	}
	return out, nil
}

func illegalState(msg string) error {
	return &connectors.Error{Exception: "IllegalStateException", Msg: msg}
}

// dialect is what differs between databases (Flink's JdbcDialect): the
// URLs it handles, identifier quoting, the upsert statement and the types
// it can store.
type dialect interface {
	name() string
	factoryName() string
	prefix() string
	canHandle(url string) bool
	defaultPort() int
	quote(ident string) string
	// upsert returns the statement that inserts a row or updates the row
	// with the same key.
	upsert(table string, cols, key []string) string
	validate(cols []connectors.Column) error
	// placeholder is the i-th (from 1) parameter of a statement.
	placeholder(i int) string
	// param converts an engine value of type t into an argument of the
	// driver for a column of that type.
	param(v any, t *types.Type) any
	// connect opens a connection within timeout.
	connect(ctx context.Context, u *dbURL, user, pass string, timeout time.Duration) (conn, error)
	// errorText is the text of an error of the database or its driver.
	errorText(err error) string
	// transient reports whether err is a lost connection or a server going
	// away, after which a statement is retried on a new connection.
	transient(err error) bool
	// stringOrder wraps a VARCHAR column compared by <, <=, > or >= in a
	// pushed-down filter so that the database orders strings byte-wise,
	// as the engine does.
	stringOrder(col string) string
}

func dialects() []dialect { return []dialect{postgres{}, mysql{}} }

// postgres is Flink's PostgresDialect: identifiers are not quoted, an
// upsert is INSERT ... ON CONFLICT (key) DO UPDATE SET.
type postgres struct{}

func (postgres) name() string { return "PostgreSQL" }
func (postgres) factoryName() string {
	return "org.apache.flink.connector.jdbc.postgres.database.PostgresFactory"
}
func (postgres) prefix() string { return "jdbc:postgresql:" }
func (postgres) canHandle(u string) bool {
	return strings.HasPrefix(u, "jdbc:postgresql:")
}
func (postgres) defaultPort() int          { return 5432 }
func (postgres) quote(ident string) string { return ident }
func (postgres) placeholder(i int) string  { return "$" + strconv.Itoa(i) }

// stringOrder uses the C collation, which orders bytes.
func (postgres) stringOrder(col string) string { return col + ` COLLATE "C"` }

func (d postgres) upsert(table string, cols, key []string) string {
	isKey := map[string]bool{}
	for _, k := range key {
		isKey[k] = true
	}
	var set []string
	for _, c := range cols {
		if !isKey[c] {
			set = append(set, d.quote(c)+"=EXCLUDED."+d.quote(c))
		}
	}
	stmt := insertStatement(d, table, cols) + " ON CONFLICT (" + quoteAll(d, key) + ")"
	if len(set) == 0 {
		return stmt + " DO NOTHING"
	}
	return stmt + " DO UPDATE SET " + strings.Join(set, ", ")
}

// validate is Flink's AbstractDialect.validate with PostgreSQL's types and
// precision ranges.
func (d postgres) validate(cols []connectors.Column) error {
	for _, c := range cols {
		if err := d.validateType(c.Name, c.Type); err != nil {
			return err
		}
	}
	return nil
}

func (d postgres) validateType(name string, t *types.Type) error {
	switch t.Kind {
	case types.Char, types.VarChar, types.Boolean, types.TinyInt, types.SmallInt, types.Int, types.BigInt,
		types.Float, types.Double, types.Date, types.Time, types.TimestampLTZ:
	case types.VarBinary:
		if t.Length != types.MaxLength {
			return validationError("The %s dialect doesn't support type: %s.", d.name(), t)
		}
	case types.Array:
		// The element's type is checked when values are converted.
	case types.Decimal:
		if t.Prec < 1 || t.Prec > 1000 {
			return validationError("The precision of field '%s' is out of the DECIMAL precision range [%d, %d] supported by %s dialect.", name, 1, 1000, d.name())
		}
	case types.Timestamp:
		if t.Prec < 1 || t.Prec > 6 {
			return validationError("The precision of field '%s' is out of the TIMESTAMP precision range [%d, %d] supported by %s dialect.", name, 1, 6, d.name())
		}
	default:
		return validationError("The %s dialect doesn't support type: %s.", d.name(), t)
	}
	return nil
}

func quoteAll(d dialect, names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = d.quote(n)
	}
	return strings.Join(q, ", ")
}

// insertStatement is INSERT INTO table(cols) VALUES ($1, ...).
func insertStatement(d dialect, table string, cols []string) string {
	return "INSERT INTO " + d.quote(table) + "(" + quoteAll(d, cols) + ") VALUES (" + placeholders(d, 1, len(cols)) + ")"
}

// placeholders returns n positional parameters from the from-th on.
func placeholders(d dialect, from, n int) string {
	p := make([]string, n)
	for i := range p {
		p[i] = d.placeholder(from + i)
	}
	return strings.Join(p, ", ")
}
