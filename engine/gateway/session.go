package gateway

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"eddy/conf"
	"eddy/engine/result"
)

// DefaultHeartbeat is how often an open session tells the gateway it is
// alive: well inside sql-gateway.session.idle-timeout (10 minutes).
const DefaultHeartbeat = time.Minute

// Config opens a session.
type Config struct {
	ClientConfig
	// SessionName names the session on the gateway; "" lets it choose.
	SessionName string
	// Properties are the session's configuration: the YAML
	// configuration's settings and -D flags, as Flink's SQL client sends
	// them when it opens a session.
	Properties map[string]string
	// Heartbeat is the heartbeat interval; 0 means DefaultHeartbeat, a
	// negative value sends none.
	Heartbeat time.Duration
}

// Session is one gateway session: statements run remotely and their answers
// come back as the same result.Result the local engine gives. It has the
// methods the shell needs (Execute, Prompt, Option). Its methods may be
// called from several goroutines; statements run one at a time.
type Session struct {
	c      *Client
	handle string

	exec sync.Mutex // one statement at a time

	mu       sync.Mutex
	props    map[string]string
	catalog  string
	database string

	stop      chan struct{}
	done      chan struct{}
	closeOnce sync.Once
	closeErr  error
}

// Open negotiates the API version, opens a session with cfg's properties,
// reads its current catalog and database, and starts the heartbeat.
func Open(ctx context.Context, cfg Config) (*Session, error) {
	c, err := NewClient(ctx, cfg.ClientConfig)
	if err != nil {
		return nil, err
	}
	req := map[string]any{}
	if cfg.SessionName != "" {
		req["sessionName"] = cfg.SessionName
	}
	if len(cfg.Properties) > 0 {
		req["properties"] = cfg.Properties
	}
	var resp struct {
		SessionHandle string `json:"sessionHandle"`
	}
	if err := c.do(ctx, http.MethodPost, c.path("/sessions"), req, &resp); err != nil {
		return nil, fmt.Errorf("gateway %s: opening a session: %w", c.Endpoint(), statementError(err))
	}
	if resp.SessionHandle == "" {
		return nil, fmt.Errorf("gateway %s: opening a session: no session handle", c.Endpoint())
	}
	s := &Session{c: c, handle: resp.SessionHandle, stop: make(chan struct{}), done: make(chan struct{})}
	if err := s.refresh(ctx, true, true); err != nil {
		s.closeRemote()
		return nil, err
	}
	interval := cfg.Heartbeat
	if interval == 0 {
		interval = DefaultHeartbeat
	}
	go s.heartbeat(interval)
	return s, nil
}

// Client returns the session's client.
func (s *Session) Client() *Client { return s.c }

// Handle returns the gateway's session handle.
func (s *Session) Handle() string { return s.handle }

// Prompt returns the session's current catalog and database on the gateway.
func (s *Session) Prompt() (catalog, database string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.catalog, s.database
}

// Option returns the session's value of a configuration key, as the
// gateway reported it after the last SET or RESET ("" when it has none).
func (s *Session) Option(key string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.props[key]
}

// zone returns the session's table.local-time-zone; a zone the client
// cannot resolve reads as UTC.
func (s *Session) zone() *time.Location {
	loc, err := conf.LoadZone(s.Option("table.local-time-zone"))
	if err != nil {
		return time.UTC
	}
	return loc
}

// Options returns a copy of the session's configuration on the gateway.
func (s *Session) Options() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]string, len(s.props))
	for k, v := range s.props {
		out[k] = v
	}
	return out
}

// Complete returns the gateway's completion candidates for the statement
// text with the cursor at byte offset pos (complete-statement).
func (s *Session) Complete(ctx context.Context, statement string, pos int) ([]string, error) {
	var resp struct {
		Candidates []string `json:"candidates"`
	}
	req := map[string]any{"statement": statement, "position": pos}
	if err := s.c.do(ctx, http.MethodGet, s.sessionPath("/complete-statement"), req, &resp); err != nil {
		return nil, statementError(err)
	}
	return resp.Candidates, nil
}

// Close stops the heartbeat and closes the session on the gateway.
func (s *Session) Close() error {
	s.closeOnce.Do(func() {
		close(s.stop)
		<-s.done
		s.closeErr = s.closeRemote()
	})
	return s.closeErr
}

func (s *Session) closeRemote() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.c.do(ctx, http.MethodDelete, s.sessionPath(""), nil, nil); err != nil {
		return fmt.Errorf("gateway: closing session %s: %w", s.handle, err)
	}
	return nil
}

func (s *Session) heartbeat(interval time.Duration) {
	defer close(s.done)
	if interval < 0 {
		<-s.stop
		return
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), s.c.timeout)
			// A missed heartbeat is not fatal: the next statement reports
			// an expired session.
			_ = s.c.do(ctx, http.MethodPost, s.sessionPath("/heartbeat"), nil, nil)
			cancel()
		}
	}
}

func (s *Session) sessionPath(p string) string {
	return s.c.path("/sessions/" + s.handle + p)
}

// refresh re-reads what statements may have changed: the configuration
// (after SET and RESET) and the current catalog and database (after USE).
func (s *Session) refresh(ctx context.Context, props, current bool) error {
	if props {
		var resp struct {
			Properties map[string]string `json:"properties"`
		}
		if err := s.c.do(ctx, http.MethodGet, s.sessionPath(""), nil, &resp); err != nil {
			return fmt.Errorf("gateway: reading the session configuration: %w", statementError(err))
		}
		s.mu.Lock()
		s.props = resp.Properties
		s.mu.Unlock()
	}
	if current {
		cat, err := s.scalar(ctx, "SHOW CURRENT CATALOG")
		if err != nil {
			return err
		}
		db, err := s.scalar(ctx, "SHOW CURRENT DATABASE")
		if err != nil {
			return err
		}
		s.mu.Lock()
		s.catalog, s.database = cat, db
		s.mu.Unlock()
	}
	return nil
}

// scalar runs a statement answering one string and returns it.
func (s *Session) scalar(ctx context.Context, stmt string) (string, error) {
	res, err := s.run(ctx, stmt)
	if err != nil {
		return "", err
	}
	defer res.Close()
	if res.Rows == nil {
		return "", fmt.Errorf("gateway: %s gave no rows", stmt)
	}
	row, ok, err := res.Rows.Next(ctx)
	if err != nil {
		return "", err
	}
	if !ok || len(row.Values) != 1 {
		return "", fmt.Errorf("gateway: %s gave no value", stmt)
	}
	v, _ := row.Values[0].(string)
	return v, nil
}

// Execute runs one statement on the gateway (a trailing ';' is allowed).
// A failure is an *sqlerr.Error with the root cause's class and message.
// Cancelling ctx while the statement runs cancels and closes the operation
// on the gateway; for a query, cancelling the context passed to the rows'
// Next does the same.
func (s *Session) Execute(ctx context.Context, sql string) (*result.Result, error) {
	s.exec.Lock()
	defer s.exec.Unlock()
	stmt := strings.TrimSpace(sql)
	stmt = strings.TrimSpace(strings.TrimSuffix(stmt, ";"))
	res, err := s.run(ctx, stmt)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		return nil, statementError(err)
	}
	props, current := affects(stmt)
	if props || current {
		if err := s.refresh(ctx, props, current); err != nil {
			res.Close()
			return nil, err
		}
	}
	return res, nil
}

// affects says whether a statement may change the session configuration
// (SET, RESET) or the current catalog and database (USE, and the statements
// that may drop or create the current one).
func affects(stmt string) (props, current bool) {
	w := strings.ToUpper(firstWord(stmt))
	switch w {
	case "SET", "RESET":
		return true, false
	case "USE", "DROP", "CREATE", "ALTER":
		return false, w == "USE" || strings.Contains(strings.ToUpper(stmt), "CATALOG") ||
			strings.Contains(strings.ToUpper(stmt), "DATABASE")
	}
	return false, false
}

// firstWord returns the first word of a statement after blanks and SQL
// comments.
func firstWord(stmt string) string {
	for {
		stmt = strings.TrimLeft(stmt, " \t\r\n")
		switch {
		case strings.HasPrefix(stmt, "--"):
			_, rest, ok := strings.Cut(stmt, "\n")
			if !ok {
				return ""
			}
			stmt = rest
			continue
		case strings.HasPrefix(stmt, "/*"):
			_, rest, ok := strings.Cut(stmt[2:], "*/")
			if !ok {
				return ""
			}
			stmt = rest
			continue
		}
		end := strings.IndexFunc(stmt, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_')
		})
		if end < 0 {
			return stmt
		}
		return stmt[:end]
	}
}
