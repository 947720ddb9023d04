package jdbc

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	gomysql "github.com/go-sql-driver/mysql"
	"github.com/shopspring/decimal"

	"eddy/engine/connectors"
	"eddy/engine/types"
)

// mysql is Flink's MySqlDialect (jdbc:mysql:// URLs, MySQL and MariaDB
// servers): identifiers are quoted with backticks, an upsert is
// INSERT ... ON DUPLICATE KEY UPDATE of every column.
type mysql struct{}

func (mysql) name() string { return "MySQL" }
func (mysql) factoryName() string {
	return "org.apache.flink.connector.jdbc.mysql.database.MySqlFactory"
}
func (mysql) prefix() string                { return "jdbc:mysql:" }
func (mysql) canHandle(u string) bool       { return strings.HasPrefix(u, "jdbc:mysql:") }
func (mysql) defaultPort() int              { return 3306 }
func (mysql) quote(ident string) string     { return "`" + ident + "`" }
func (mysql) placeholder(int) string        { return "?" }
func (mysql) stringOrder(col string) string { return "CAST(" + col + " AS BINARY)" }
func (d mysql) validate(cols []connectors.Column) error {
	for _, c := range cols {
		if err := d.validateType(c.Name, c.Type); err != nil {
			return err
		}
	}
	return nil
}

// upsert is Flink's MySqlDialect.getUpsertStatement: every column,
// the key's included, takes the inserted value.
func (d mysql) upsert(table string, cols, _ []string) string {
	set := make([]string, len(cols))
	for i, c := range cols {
		set[i] = d.quote(c) + "=VALUES(" + d.quote(c) + ")"
	}
	return insertStatement(d, table, cols) + " ON DUPLICATE KEY UPDATE " + strings.Join(set, ", ")
}

// validateType is Flink's AbstractDialect.validate with MySqlDialect's
// types and ranges: DECIMAL precision 1 to 65, TIMESTAMP precision 0 to 6.
func (d mysql) validateType(name string, t *types.Type) error {
	switch t.Kind {
	case types.Char, types.VarChar, types.Boolean, types.TinyInt, types.SmallInt, types.Int, types.BigInt,
		types.Float, types.Double, types.Date, types.Time:
	case types.VarBinary:
		if t.Length != types.MaxLength {
			return validationError("The %s dialect doesn't support type: %s.", d.name(), t)
		}
	case types.Decimal:
		if t.Prec < 1 || t.Prec > 65 {
			return validationError("The precision of field '%s' is out of the DECIMAL precision range [%d, %d] supported by %s dialect.", name, 1, 65, d.name())
		}
	case types.Timestamp:
		if t.Prec < 0 || t.Prec > 6 {
			return validationError("The precision of field '%s' is out of the TIMESTAMP precision range [%d, %d] supported by %s dialect.", name, 0, 6, d.name())
		}
	default:
		return validationError("The %s dialect doesn't support type: %s.", d.name(), t)
	}
	return nil
}

// myConn is a connection to MySQL or MariaDB through go-sql-driver/mysql:
// one pinned connection of a pool of one.
type myConn struct {
	db   *sql.DB
	c    *sql.Conn
	tx   *sql.Tx // the read-only transaction of beginRead
	lost bool
}

// connect opens a connection whose values are read in UTC (Flink reads
// DATETIME and TIMESTAMP as local date-times) and whose statements'
// arguments are written into their text by the driver.
func (mysql) connect(ctx context.Context, u *dbURL, user, pass string, timeout time.Duration) (conn, error) {
	cfg := gomysql.NewConfig()
	cfg.Net = "tcp"
	cfg.Addr = u.address()
	cfg.DBName = u.database
	cfg.User, cfg.Passwd = user, pass
	cfg.Timeout = timeout
	cfg.ParseTime = true
	cfg.Loc = time.UTC
	cfg.InterpolateParams = true
	cfg.AllowNativePasswords = true
	cfg.Params = map[string]string{"time_zone": "'+00:00'"}
	// The driver's own log would write to the terminal; its errors reach
	// the statement.
	cfg.Logger = &gomysql.NopLogger{}
	connector, err := gomysql.NewConnector(cfg)
	if err != nil {
		return nil, connectError(u, user, err.Error())
	}
	db := sql.OpenDB(connector)
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c, err := db.Conn(cctx)
	if err == nil {
		err = c.PingContext(cctx)
		if err != nil {
			c.Close()
		}
	}
	if err != nil {
		db.Close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		cause := err.Error()
		if errors.Is(err, context.DeadlineExceeded) || strings.Contains(cause, "timeout") {
			cause = "timed out: " + cause
		}
		return nil, connectError(u, user, cause)
	}
	return &myConn{db: db, c: c}, nil
}

func (m *myConn) query(ctx context.Context, q string, args []any) (rowIter, error) {
	var rows *sql.Rows
	var err error
	if m.tx != nil {
		rows, err = m.tx.QueryContext(ctx, q, args...)
	} else {
		rows, err = m.c.QueryContext(ctx, q, args...)
	}
	if err != nil {
		m.note(err)
		return nil, err
	}
	return &myRows{rows: rows, m: m}, nil
}

func (m *myConn) beginRead(ctx context.Context) error {
	tx, err := m.c.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		m.note(err)
		return err
	}
	m.tx = tx
	return nil
}

// writeTx runs the statements one after the other in a transaction.
func (m *myConn) writeTx(ctx context.Context, stmts []stmt, each bool) (int, error) {
	tx, err := m.c.BeginTx(ctx, nil)
	if err != nil {
		m.note(err)
		return -1, err
	}
	defer tx.Rollback() //nolint:errcheck // a committed transaction ignores it
	for i, s := range stmts {
		if _, err := tx.ExecContext(ctx, s.sql, s.args...); err != nil {
			m.note(err)
			if each && !(mysql{}).transient(err) {
				return i, err
			}
			return -1, err
		}
	}
	if err := tx.Commit(); err != nil {
		m.note(err)
		return -1, err
	}
	return -1, nil
}

// note marks the connection lost after an error that is not the
// database's answer to a statement.
func (m *myConn) note(err error) {
	var me *gomysql.MySQLError
	if !errors.As(err, &me) {
		m.lost = true
	}
}

func (m *myConn) closed() bool { return m.lost }

func (m *myConn) close() error {
	if m.tx != nil {
		_ = m.tx.Rollback()
		m.tx = nil
	}
	err := m.c.Close()
	if e := m.db.Close(); err == nil {
		err = e
	}
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, gomysql.ErrInvalidConn) {
		return nil
	}
	return err
}

type myRows struct {
	rows *sql.Rows
	m    *myConn
	vals []any
	ptrs []any
}

func (r *myRows) next() bool { return r.rows.Next() }
func (r *myRows) width() int {
	cols, _ := r.rows.Columns()
	return len(cols)
}
func (r *myRows) close() { r.rows.Close() }
func (r *myRows) err() error {
	err := r.rows.Err()
	if err != nil {
		r.m.note(err)
	}
	return err
}

func (r *myRows) row(ts []*types.Type, dst []any) (int, error) {
	if len(ts) == 0 {
		return -1, nil
	}
	if r.vals == nil {
		r.vals = make([]any, len(ts))
		r.ptrs = make([]any, len(ts))
		for i := range r.vals {
			r.ptrs[i] = &r.vals[i]
		}
	}
	if err := r.rows.Scan(r.ptrs...); err != nil {
		return -1, err
	}
	for i, v := range r.vals {
		x, err := myToEngine(v, ts[i])
		if err != nil {
			return i, err
		}
		dst[i] = x
	}
	return -1, nil
}

// errorText is the driver's text: "Error NNNN (SQLSTATE): message".
func (mysql) errorText(err error) string { return err.Error() }

func (mysql) transient(err error) bool {
	var me *gomysql.MySQLError
	if errors.As(err, &me) {
		switch me.Number {
		case 1040, // too many connections
			1053, // server shutdown in progress
			1205, // lock wait timeout
			1213, // deadlock
			1927, // connection killed
			2006, 2013:
			return true
		}
		return false
	}
	return true
}

// param converts an engine value into what the driver writes for a
// column of type t: DECIMAL, DATE and TIME as their text.
func (mysql) param(v any, t *types.Type) any {
	if v == nil {
		return nil
	}
	switch t.Kind {
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		if n, ok := types.AsInt64(v); ok {
			return n
		}
	case types.Decimal:
		if d, ok := v.(*decimal.Decimal); ok {
			return types.DecimalText(d)
		}
	case types.Date:
		if n, ok := types.AsInt64(v); ok {
			return types.DateTime(int32(n)).Format("2006-01-02")
		}
	case types.Time:
		if d, ok := v.(time.Duration); ok {
			return clockText(d)
		}
	}
	return v
}

// clockText is a time of day as hh:mm:ss[.ffffff].
func clockText(d time.Duration) string {
	s := time.Unix(0, 0).UTC().Add(d).Format("15:04:05.999999")
	return s
}

// myToEngine converts what the driver read into the engine value of type
// t (Flink's MySQLDialectConverter): numbers arrive as numbers or their
// text, DATE and DATETIME as times in UTC, TIME as its text.
func myToEngine(v any, t *types.Type) (any, error) {
	if v == nil {
		return nil, nil
	}
	text, isText := v.([]byte)
	switch t.Kind {
	case types.Boolean:
		switch x := v.(type) {
		case bool:
			return x, nil
		case int64:
			return x != 0, nil
		case []byte:
			if len(x) == 1 && x[0] <= 1 { // BIT(1)
				return x[0] == 1, nil
			}
			n, err := strconv.ParseInt(string(x), 10, 64)
			if err == nil {
				return n != 0, nil
			}
		}
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		switch x := v.(type) {
		case int64:
			return types.IntegerValue(t.Kind, x), nil
		case uint64:
			return types.IntegerValue(t.Kind, int64(x)), nil
		case []byte:
			n, err := strconv.ParseInt(string(x), 10, 64)
			if err == nil {
				return types.IntegerValue(t.Kind, n), nil
			}
		}
	case types.Float, types.Double:
		var f float64
		var ok bool
		switch x := v.(type) {
		case float32:
			f, ok = float64(x), true
		case float64:
			f, ok = x, true
		case int64:
			f, ok = float64(x), true
		case []byte:
			var err error
			f, err = strconv.ParseFloat(string(x), 64)
			ok = err == nil
		}
		if ok && t.Kind == types.Float {
			return float32(f), nil
		}
		if ok {
			return f, nil
		}
	case types.Decimal:
		var d *decimal.Decimal
		switch x := v.(type) {
		case []byte:
			d2, err := types.ParseDecimal(string(x))
			if err == nil {
				d = d2
			}
		case int64:
			d = types.DecimalValue(x, 0)
		case uint64:
			d, _ = types.ParseDecimal(strconv.FormatUint(x, 10))
		case float32, float64:
			dd, err := decimalOf(x)
			if err == nil {
				d = dd
			}
		}
		if d != nil {
			return types.RoundDecimal(d, t.Prec, t.Scale), nil
		}
	case types.Char, types.VarChar:
		switch x := v.(type) {
		case []byte:
			return string(x), nil
		case string:
			return x, nil
		case time.Time:
			return x.Format("2006-01-02 15:04:05.999999"), nil
		}
		return fmt.Sprint(v), nil
	case types.Binary, types.VarBinary:
		if isText {
			return text, nil
		}
	case types.Date:
		if tm, ok := v.(time.Time); ok {
			return types.DateOf(time.Date(tm.Year(), tm.Month(), tm.Day(), 0, 0, 0, 0, time.UTC)), nil
		}
	case types.Time:
		if isText {
			d, err := parseClock(string(text))
			if err == nil {
				return truncDuration(d, t.Prec), nil
			}
			return nil, err
		}
	case types.Timestamp:
		if tm, ok := v.(time.Time); ok {
			wall := time.Date(tm.Year(), tm.Month(), tm.Day(), tm.Hour(), tm.Minute(), tm.Second(), tm.Nanosecond(), time.UTC)
			return types.TruncateTime(wall, t.Prec), nil
		}
	}
	return nil, fmt.Errorf("cannot read a %T value as %s", v, t)
}

// parseClock reads a MySQL TIME within a day: hh:mm:ss[.ffffff].
func parseClock(s string) (time.Duration, error) {
	tm, err := time.Parse("15:04:05.999999999", s)
	if err != nil {
		return 0, fmt.Errorf("the TIME '%s' is not a time of day", s)
	}
	return time.Duration(tm.Hour())*time.Hour + time.Duration(tm.Minute())*time.Minute +
		time.Duration(tm.Second())*time.Second + time.Duration(tm.Nanosecond()), nil
}
