package jdbc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"eddy/engine/connectors"
)

// connectTimeout bounds one connection attempt (the PostgreSQL JDBC
// driver's default connectTimeout), never more than the table's
// connection.max-retry-timeout.
const connectTimeout = 10 * time.Second

// connect opens a connection to the table's database. A failure names the
// host, port, database and user, never the password, and comes within
// the connect timeout.
func (s *spec) connect(ctx context.Context) (*pgx.Conn, error) {
	return connectURL(ctx, s.url, s.user, s.pass, s.maxRetryTimeout)
}

func connectURL(ctx context.Context, u *dbURL, user, pass string, limit time.Duration) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig("")
	if err != nil {
		return nil, err
	}
	cfg.Host, cfg.Port, cfg.Database = u.host, uint16(u.port), u.database
	cfg.User, cfg.Password = user, pass
	if cfg.User == "" {
		cfg.User = u.params.Get("user")
	}
	if cfg.Password == "" {
		cfg.Password = u.params.Get("password")
	}
	cfg.TLSConfig = nil
	cfg.Fallbacks = nil
	timeout := min(connectTimeout, limit)
	cfg.ConnectTimeout = timeout
	cfg.RuntimeParams["application_name"] = "eddy"
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	conn, err := pgx.ConnectConfig(cctx, cfg)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, connectError(u, cfg.User, err)
	}
	return conn, nil
}

// connectError is a failed connection: Flink reports an SQLException from
// the driver; its text here names where eddy tried to connect.
func connectError(u *dbURL, user string, err error) error {
	cause := err.Error()
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		cause = fmt.Sprintf("%s: %s (SQLSTATE %s)", pe.Severity, pe.Message, pe.Code)
	} else if errors.Is(err, context.DeadlineExceeded) || strings.Contains(cause, "timeout") {
		cause = "timed out: " + cause
	}
	msg := fmt.Sprintf("Failed to connect to the %s database '%s' at %s as user '%s': %s",
		u.dialect.name(), u.database, u.address(), user, cause)
	return &connectors.Error{Exception: "SQLException", Msg: msg}
}

// dbError wraps an error of a statement as the database's own error.
func (s *spec) dbError(what string, err error) error {
	if err == nil {
		return nil
	}
	var ce *connectors.Error
	if errors.As(err, &ce) {
		return err
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	msg := err.Error()
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		msg = fmt.Sprintf("%s: %s (SQLSTATE %s)", pe.Severity, pe.Message, pe.Code)
		if pe.Detail != "" {
			msg += "\n  Detail: " + pe.Detail
		}
	}
	return &connectors.Error{Exception: "SQLException", Msg: fmt.Sprintf("%s %s of %s database '%s' at %s: %s",
		what, s.table, s.url.dialect.name(), s.url.database, s.url.address(), msg)}
}

// transient reports whether err is a lost connection or a server going
// away, after which a write is retried on a new connection.
func transient(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		// Class 08: connection exception; 57P01..57P03: the server is
		// shutting down or starting; 40001, 40P01: serialization failure
		// and deadlock.
		return strings.HasPrefix(pe.Code, "08") || strings.HasPrefix(pe.Code, "57P") || pe.Code == "40001" || pe.Code == "40P01"
	}
	return true
}
