package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"eddy/engine/result"
	"eddy/engine/sqlerr"
)

// fakeGateway answers the REST calls of a session the way Flink 2.2 does,
// from canned pages per statement, and records what it was asked.
type fakeGateway struct {
	t        *testing.T
	versions []string
	pages    map[string][]string // statement -> fetch answers (JSON), in order

	mu        sync.Mutex
	ops       map[string]string // operation -> statement
	fetched   map[string]int    // operation -> pages served
	calls     []string          // "METHOD path"
	headers   []http.Header
	fail503   map[string]int // path prefix -> failures left
	cancelled map[string]bool
	closed    map[string]bool
}

func newFake(t *testing.T) *fakeGateway {
	return &fakeGateway{
		t: t, versions: []string{"V1", "V2", "V3"},
		pages: map[string][]string{
			"SHOW CURRENT CATALOG":  {page("EOS", false, "", "SUCCESS_WITH_CONTENT", stringCol("current catalog name"), `["cat"]`)},
			"SHOW CURRENT DATABASE": {page("EOS", false, "", "SUCCESS_WITH_CONTENT", stringCol("current database name"), `["db"]`)},
		},
		ops: map[string]string{}, fetched: map[string]int{}, fail503: map[string]int{},
		cancelled: map[string]bool{}, closed: map[string]bool{},
	}
}

func stringCol(name string) string {
	return `[{"name":"` + name + `","logicalType":{"type":"VARCHAR","nullable":true,"length":2147483647},"comment":null}]`
}

// page builds a fetch answer; rows are the fields arrays of INSERT rows.
func page(resultType string, query bool, jobID, kind, columns string, rows ...string) string {
	if resultType == "NOT_READY" {
		return `{"resultType":"NOT_READY"}`
	}
	data := make([]string, len(rows))
	for i, r := range rows {
		data[i] = `{"kind":"INSERT","fields":` + r + `}`
	}
	job := ""
	if jobID != "" {
		job = `,"jobID":"` + jobID + `"`
	}
	return fmt.Sprintf(`{"resultType":%q,"isQueryResult":%v%s,"resultKind":%q,"results":{"columns":%s,"rowFormat":"JSON","data":[%s]}}`,
		resultType, query, job, kind, columns, strings.Join(data, ","))
}

func (f *fakeGateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, r.Method+" "+r.URL.Path)
	f.headers = append(f.headers, r.Header.Clone())
	for prefix, n := range f.fail503 {
		if n > 0 && strings.HasPrefix(r.URL.Path, prefix) {
			f.fail503[prefix] = n - 1
			http.Error(w, `{"errors":["busy"]}`, http.StatusServiceUnavailable)
			return
		}
	}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	switch {
	case r.URL.Path == "/api_versions":
		json.NewEncoder(w).Encode(map[string]any{"versions": f.versions})
	case len(parts) == 2 && parts[1] == "sessions" && r.Method == http.MethodPost:
		io.WriteString(w, `{"sessionHandle":"s1"}`)
	case len(parts) == 3 && r.Method == http.MethodGet:
		io.WriteString(w, `{"properties":{"execution.runtime-mode":"batch","table.dml-sync":"false"}}`)
	case len(parts) == 4 && parts[3] == "heartbeat" && r.Method == http.MethodPost:
		w.WriteHeader(http.StatusOK)
	case len(parts) == 3 && r.Method == http.MethodDelete:
		io.WriteString(w, `{"status":"CLOSED"}`)
	case len(parts) == 4 && parts[3] == "statements":
		var req struct{ Statement string }
		json.NewDecoder(r.Body).Decode(&req)
		if _, ok := f.pages[req.Statement]; !ok {
			f.t.Errorf("unexpected statement %q", req.Statement)
		}
		op := fmt.Sprintf("op%d", len(f.ops)+1)
		f.ops[op] = req.Statement
		fmt.Fprintf(w, `{"operationHandle":%q}`, op)
	case len(parts) >= 6 && parts[3] == "operations":
		op := parts[4]
		switch parts[5] {
		case "result":
			if r.URL.Query().Get("rowFormat") != "JSON" {
				f.t.Errorf("fetch without rowFormat=JSON: %s", r.URL)
			}
			pages := f.pages[f.ops[op]]
			i := f.fetched[op]
			if i >= len(pages) {
				f.t.Errorf("fetch past EOS: %s", r.URL)
				i = len(pages) - 1
			}
			f.fetched[op] = i + 1
			body := pages[i]
			if strings.HasPrefix(body, `{"errors"`) {
				w.WriteHeader(http.StatusInternalServerError)
				io.WriteString(w, body)
				return
			}
			if !strings.Contains(body, `"EOS"`) {
				next := fmt.Sprintf("/%s/sessions/s1/operations/%s/result/%d?rowFormat=JSON", parts[0], op, i+1)
				body = strings.TrimSuffix(body, "}") + `,"nextResultUri":"` + next + `"}`
			}
			io.WriteString(w, body)
		case "cancel":
			f.cancelled[op] = true
			io.WriteString(w, `{"status":"CANCELED"}`)
		case "close":
			f.closed[op] = true
			io.WriteString(w, `{"status":"CLOSED"}`)
		case "status":
			io.WriteString(w, `{"status":"RUNNING"}`)
		}
	default:
		http.NotFound(w, r)
	}
}

func openFake(t *testing.T, f *fakeGateway) *Session {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	h, skipped := ParseHeaders("X-Auth: token:1\nCookie:a=b\n")
	if len(skipped) > 0 {
		t.Fatal(skipped)
	}
	s, err := Open(context.Background(), Config{
		ClientConfig: ClientConfig{Endpoint: srv.URL + "/", Headers: h, RequestTimeout: 5 * time.Second},
		Properties:   map[string]string{"execution.runtime-mode": "batch"},
		Heartbeat:    -1,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestOpenNegotiatesAndSendsHeaders(t *testing.T) {
	f := newFake(t)
	s := openFake(t, f)
	if s.Client().Version() != 3 {
		t.Errorf("version %d, want 3 (the newest the fake lists)", s.Client().Version())
	}
	if cat, db := s.Prompt(); cat != "cat" || db != "db" {
		t.Errorf("prompt %s.%s", cat, db)
	}
	if s.Option("execution.runtime-mode") != "batch" {
		t.Errorf("options %v", s.Options())
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, h := range f.headers {
		if h.Get("X-Auth") != "token:1" || h.Get("Cookie") != "a=b" {
			t.Errorf("%s: headers %v", f.calls[i], h)
		}
	}
	if f.calls[1] != "POST /v3/sessions" {
		t.Errorf("calls %v", f.calls)
	}
}

func TestVersionTooOld(t *testing.T) {
	f := newFake(t)
	f.versions = []string{"V1"}
	srv := httptest.NewServer(f)
	defer srv.Close()
	_, err := Open(context.Background(), Config{ClientConfig: ClientConfig{Endpoint: srv.URL}})
	if err == nil || !strings.Contains(err.Error(), "needs v2") {
		t.Errorf("a v1-only gateway: %v", err)
	}
}

func TestPickVersion(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want int
	}{{[]string{"V1", "V2"}, 2}, {[]string{"V1", "V2", "V3", "V4", "V5"}, 4}, {[]string{"v3", "V2"}, 3}, {nil, 0}} {
		got, err := pickVersion(c.in)
		if got != c.want || (c.want == 0) != (err != nil) {
			t.Errorf("pickVersion(%v) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}

func TestParseHeaders(t *testing.T) {
	h, skipped := ParseHeaders("A:1\nB: two \n\nnovalue\nC:x:y")
	if h.Get("A") != "1" || h.Get("B") != "two" || h.Get("C") != "x:y" || len(h) != 3 {
		t.Errorf("got %v", h)
	}
	if len(skipped) != 1 || skipped[0] != "novalue" {
		t.Errorf("skipped %q, want the line without ':'", skipped)
	}
}

func TestPagingAndKinds(t *testing.T) {
	f := newFake(t)
	intCol := `[{"name":"x","logicalType":{"type":"INTEGER","nullable":false},"comment":null}]`
	f.pages["SELECT x"] = []string{
		page("NOT_READY", false, "", "", ""),
		page("PAYLOAD", true, "j1", "SUCCESS_WITH_CONTENT", intCol),
		page("PAYLOAD", true, "j1", "SUCCESS_WITH_CONTENT", intCol, "[1]", "[2]"),
		page("NOT_READY", false, "", "", ""),
		page("PAYLOAD", true, "j1", "SUCCESS_WITH_CONTENT", intCol, "[3]"),
		page("EOS", true, "j1", "SUCCESS_WITH_CONTENT", intCol),
	}
	f.pages["CREATE VIEW v AS SELECT 1"] = []string{page("EOS", false, "", "SUCCESS", stringCol("result"), `["OK"]`)}
	f.pages["INSERT INTO t VALUES (1)"] = []string{
		page("PAYLOAD", false, "abc", "SUCCESS_WITH_CONTENT", stringCol("job id"), `["abc"]`),
		page("EOS", false, "abc", "SUCCESS_WITH_CONTENT", stringCol("job id")),
	}
	s := openFake(t, f)
	ctx := context.Background()

	res, err := s.Execute(ctx, "SELECT x;")
	if err != nil {
		t.Fatal(err)
	}
	if res.Kind != result.KindRows || !res.IsQuery || res.Changelog || !res.Bounded {
		t.Errorf("batch query result %+v", res)
	}
	var got []any
	for {
		row, ok, err := res.Rows.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		got = append(got, row.Values[0])
	}
	if fmt.Sprint(got) != "[1 2 3]" {
		t.Errorf("rows %v", got)
	}
	res.Close()

	res, err = s.Execute(ctx, "CREATE VIEW v AS SELECT 1")
	if err != nil || res.Kind != result.KindSuccess {
		t.Errorf("DDL: %+v %v", res, err)
	}
	res, err = s.Execute(ctx, "INSERT INTO t VALUES (1)")
	if err != nil || res.Kind != result.KindInfo || !strings.Contains(res.Message, "Job ID: abc") {
		t.Errorf("INSERT: %+v %v", res, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for op, stmt := range f.ops {
		if !f.closed[op] {
			t.Errorf("operation of %q not closed", stmt)
		}
		if f.cancelled[op] {
			t.Errorf("operation of %q cancelled after reading to the end", stmt)
		}
	}
}

func TestRetryOnceForGET(t *testing.T) {
	f := newFake(t)
	f.pages["SHOW TABLES"] = []string{page("EOS", false, "", "SUCCESS_WITH_CONTENT", stringCol("table name"), `["t"]`)}
	s := openFake(t, f)
	f.mu.Lock()
	f.fail503["/v3/sessions/s1/operations/"] = 1
	f.mu.Unlock()
	res, err := s.Execute(context.Background(), "SHOW TABLES")
	if err != nil {
		t.Fatalf("one 503 on a GET is retried: %v", err)
	}
	res.Close()
	f.mu.Lock()
	f.fail503["/v3/sessions/s1/operations/"] = 2
	f.mu.Unlock()
	if _, err := s.Execute(context.Background(), "SHOW TABLES"); err == nil {
		t.Error("two 503s in a row: want an error")
	}
	// A POST is not retried.
	f.mu.Lock()
	f.fail503["/v3/sessions/s1/statements"] = 1
	f.mu.Unlock()
	if _, err := s.Execute(context.Background(), "SHOW TABLES"); err == nil {
		t.Error("a 503 on POST statements: want an error")
	}
}

func TestStatementError(t *testing.T) {
	f := newFake(t)
	trace := "<Exception on server side:\norg.apache.flink.table.gateway.api.utils.SqlGatewayException: Failed to fetchResults.\n\tat x.y(Z.java:1)\n" +
		"Caused by: org.apache.flink.table.api.ValidationException: Table `t` not found\n\t... 3 more\n\nEnd of exception on server side>"
	b, _ := json.Marshal(map[string]any{"errors": []string{"Internal server error.", trace}})
	f.pages["SELECT * FROM t"] = []string{page("NOT_READY", false, "", "", ""), string(b)}
	s := openFake(t, f)
	_, err := s.Execute(context.Background(), "SELECT * FROM t")
	var ee *sqlerr.Error
	if !errors.As(err, &ee) || ee.Class != "ValidationException" || ee.Message != "Table `t` not found" {
		t.Errorf("got %v", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed["op3"] {
		t.Error("the failed operation was not closed")
	}
}

func TestCancelWhileWaiting(t *testing.T) {
	f := newFake(t)
	var pages []string
	for range 1000 {
		pages = append(pages, page("NOT_READY", false, "", "", ""))
	}
	f.pages["SELECT slow"] = pages
	s := openFake(t, f)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := s.Execute(ctx, "SELECT slow")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.cancelled["op3"] || !f.closed["op3"] {
		t.Errorf("a statement abandoned while waiting: cancelled %v closed %v", f.cancelled["op3"], f.closed["op3"])
	}
}

func TestAffects(t *testing.T) {
	for _, c := range []struct {
		stmt          string
		props, prompt bool
	}{
		{"SET 'a' = 'b'", true, false},
		{"  reset", true, false},
		{"-- c\nUSE CATALOG x", false, true},
		{"/* c */ use db", false, true},
		{"DROP DATABASE d", false, true},
		{"CREATE TABLE t (a INT)", false, false},
		{"SELECT 1", false, false},
	} {
		p, q := affects(c.stmt)
		if p != c.props || q != c.prompt {
			t.Errorf("affects(%q) = %v, %v", c.stmt, p, q)
		}
	}
}

func TestHeartbeat(t *testing.T) {
	f := newFake(t)
	srv := httptest.NewServer(f)
	defer srv.Close()
	s, err := Open(context.Background(), Config{ClientConfig: ClientConfig{Endpoint: srv.URL}, Heartbeat: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	beats := func() int {
		f.mu.Lock()
		defer f.mu.Unlock()
		n := 0
		for _, c := range f.calls {
			if c == "POST /v3/sessions/s1/heartbeat" {
				n++
			}
		}
		return n
	}
	deadline := time.Now().Add(5 * time.Second)
	for beats() < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if beats() < 2 {
		t.Fatalf("%d heartbeats", beats())
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	n := beats()
	time.Sleep(50 * time.Millisecond)
	if beats() != n {
		t.Error("heartbeats after Close")
	}
	f.mu.Lock()
	last := f.calls[len(f.calls)-1]
	f.mu.Unlock()
	if last != "DELETE /v3/sessions/s1" {
		t.Errorf("Close ended with %s, want the session closed", last)
	}
	if err := s.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}
