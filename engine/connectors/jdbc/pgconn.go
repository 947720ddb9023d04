package jdbc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"eddy/engine/types"
)

// pgConn is a connection to PostgreSQL through pgx.
type pgConn struct {
	c  *pgx.Conn
	tx pgx.Tx // the read-only transaction of beginRead
}

func (postgres) connect(ctx context.Context, u *dbURL, user, pass string, timeout time.Duration) (conn, error) {
	cfg, err := pgx.ParseConfig("")
	if err != nil {
		return nil, err
	}
	cfg.Host, cfg.Port, cfg.Database = u.host, uint16(u.port), u.database
	cfg.User, cfg.Password = user, pass
	cfg.TLSConfig = nil
	cfg.Fallbacks = nil
	cfg.ConnectTimeout = timeout
	cfg.RuntimeParams["application_name"] = "eddy"
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c, err := pgx.ConnectConfig(cctx, cfg)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		cause := err.Error()
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			cause = fmt.Sprintf("%s: %s (SQLSTATE %s)", pe.Severity, pe.Message, pe.Code)
		} else if errors.Is(err, context.DeadlineExceeded) || strings.Contains(cause, "timeout") {
			cause = "timed out: " + cause
		}
		return nil, connectError(u, user, cause)
	}
	return &pgConn{c: c}, nil
}

func (p *pgConn) query(ctx context.Context, q string, args []any) (rowIter, error) {
	var rows pgx.Rows
	var err error
	if p.tx != nil {
		rows, err = p.tx.Query(ctx, q, args...)
	} else {
		rows, err = p.c.Query(ctx, q, args...)
	}
	if err != nil {
		return nil, err
	}
	return &pgRows{rows: rows}, nil
}

func (p *pgConn) beginRead(ctx context.Context) error {
	tx, err := p.c.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return err
	}
	p.tx = tx
	return nil
}

// writeTx sends the statements in one pipelined batch.
func (p *pgConn) writeTx(ctx context.Context, stmts []stmt, each bool) (int, error) {
	tx, err := p.c.Begin(ctx)
	if err != nil {
		return -1, err
	}
	defer tx.Rollback(context.Background()) //nolint:errcheck // a committed transaction ignores it
	batch := &pgx.Batch{}
	for _, s := range stmts {
		batch.Queue(s.sql, s.args...)
	}
	br := tx.SendBatch(ctx, batch)
	if each {
		for i := range stmts {
			if _, err := br.Exec(); err != nil {
				br.Close()
				if (postgres{}).transient(err) {
					return -1, err
				}
				return i, err
			}
		}
	}
	if err := br.Close(); err != nil {
		return -1, err
	}
	return -1, tx.Commit(ctx)
}

func (p *pgConn) closed() bool { return p.c.IsClosed() }

func (p *pgConn) close() error {
	if p.tx != nil {
		_ = p.tx.Rollback(context.Background())
		p.tx = nil
	}
	return p.c.Close(context.Background())
}

// pgRows reads pgx's decoded values; json and jsonb are read as the text
// the server sent.
type pgRows struct {
	rows pgx.Rows
}

func (r *pgRows) next() bool { return r.rows.Next() }
func (r *pgRows) width() int { return len(r.rows.FieldDescriptions()) }
func (r *pgRows) err() error { return r.rows.Err() }
func (r *pgRows) close()     { r.rows.Close() }

func (r *pgRows) row(ts []*types.Type, dst []any) (int, error) {
	if len(ts) == 0 {
		return -1, nil
	}
	vals, err := r.rows.Values()
	if err != nil {
		return -1, err
	}
	fds := r.rows.FieldDescriptions()
	var raw [][]byte
	for i, v := range vals {
		if v != nil && (fds[i].DataTypeOID == oidJSON || fds[i].DataTypeOID == oidJSONB) {
			if raw == nil {
				raw = r.rows.RawValues()
			}
			v = rawText(fds[i], raw[i])
		}
		x, err := toEngine(v, ts[i])
		if err != nil {
			return i, err
		}
		dst[i] = x
	}
	return -1, nil
}

// errorText is the text of a PostgreSQL error: severity, message, SQLSTATE
// and detail.
func (postgres) errorText(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		msg := fmt.Sprintf("%s: %s (SQLSTATE %s)", pe.Severity, pe.Message, pe.Code)
		if pe.Detail != "" {
			msg += "\n  Detail: " + pe.Detail
		}
		return msg
	}
	return err.Error()
}

func (postgres) transient(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		// Class 08: connection exception; 57P01..57P03: the server is
		// shutting down or starting; 40001, 40P01: serialization failure
		// and deadlock.
		return strings.HasPrefix(pe.Code, "08") || strings.HasPrefix(pe.Code, "57P") || pe.Code == "40001" || pe.Code == "40P01"
	}
	return true
}

func (postgres) param(v any, t *types.Type) any { return toParam(v, t) }
