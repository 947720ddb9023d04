package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"eddy/engine/result"
)

// Operation statuses (Flink's OperationStatus) as the status call names
// them.
const (
	StatusInitialized = "INITIALIZED"
	StatusPending     = "PENDING"
	StatusRunning     = "RUNNING"
	StatusFinished    = "FINISHED"
	StatusCanceled    = "CANCELED"
	StatusClosed      = "CLOSED"
	StatusError       = "ERROR"
	StatusTimeout     = "TIMEOUT"
)

// Result types of a fetch (Flink's ResultType).
const (
	resultNotReady = "NOT_READY"
	resultPayload  = "PAYLOAD"
	resultEOS      = "EOS"
)

// Console texts of the Flink SQL client for statements that submit a job
// (CliStrings.MESSAGE_FINISH_STATEMENT, MESSAGE_SUBMITTING_STATEMENT,
// MESSAGE_STATEMENT_SUBMITTED).
const (
	msgFinishStatement     = "Complete execution of the SQL update statement."
	msgSubmittingStatement = "Submitting SQL update statement to the cluster..."
	msgStatementSubmitted  = "SQL update statement has been successfully submitted to the cluster:"
)

// fetchBody is FetchResultsResponseBody as FetchResultsResponseBodySerializer
// writes it.
type fetchBody struct {
	ResultType    string      `json:"resultType"`
	IsQueryResult bool        `json:"isQueryResult"`
	JobID         string      `json:"jobID"`
	ResultKind    string      `json:"resultKind"`
	Results       *resultInfo `json:"results"`
	NextResultURI string      `json:"nextResultUri"`
}

// resultInfo is ResultInfo as ResultInfoSerializer writes it.
type resultInfo struct {
	Columns []struct {
		Name        string       `json:"name"`
		LogicalType *logicalType `json:"logicalType"`
	} `json:"columns"`
	RowFormat string `json:"rowFormat"`
	Data      []struct {
		Kind   string          `json:"kind"`
		Fields json.RawMessage `json:"fields"`
	} `json:"data"`
}

// columns converts the result schema.
func (ri *resultInfo) columns() ([]result.Column, error) {
	cols := make([]result.Column, len(ri.Columns))
	for i, c := range ri.Columns {
		t, err := c.LogicalType.toType()
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", c.Name, err)
		}
		cols[i] = result.Column{Name: c.Name, Type: t}
	}
	return cols, nil
}

// rows converts the page's rows to eddy's values; loc is the session's
// time zone, in which the gateway writes TIMESTAMP_LTZ values.
func (ri *resultInfo) rows(cols []result.Column, loc *time.Location) ([]result.Row, error) {
	out := make([]result.Row, 0, len(ri.Data))
	for _, d := range ri.Data {
		kind, ok := rowKindOf(d.Kind)
		if !ok {
			return nil, fmt.Errorf("unknown row kind %q", d.Kind)
		}
		var fields []any
		if err := decodeJSON(d.Fields, &fields); err != nil {
			return nil, fmt.Errorf("row fields: %w", err)
		}
		if len(fields) != len(cols) {
			return nil, fmt.Errorf("a row of %d fields for %d columns", len(fields), len(cols))
		}
		vals := make([]any, len(fields))
		for i, f := range fields {
			v, err := convertValue(cols[i].Type, f, loc)
			if err != nil {
				return nil, fmt.Errorf("column %s: %w", cols[i].Name, err)
			}
			vals[i] = v
		}
		out = append(out, result.Row{Kind: kind, Values: vals})
	}
	return out, nil
}

// operation is one submitted statement on the gateway.
type operation struct {
	s      *Session
	handle string

	mu     sync.Mutex
	closed bool
}

func (op *operation) path(p string) string {
	return op.s.sessionPath("/operations/" + op.handle + p)
}

// Status asks the gateway for the operation's status.
func (op *operation) Status(ctx context.Context) (string, error) {
	var resp struct {
		Status string `json:"status"`
	}
	if err := op.s.c.do(ctx, http.MethodGet, op.path("/status"), nil, &resp); err != nil {
		return "", err
	}
	return resp.Status, nil
}

// cancel asks the gateway to cancel the operation (its job, if any).
func (op *operation) cancel() {
	ctx, cancel := context.WithTimeout(context.Background(), op.s.c.timeout)
	defer cancel()
	_ = op.s.c.do(ctx, http.MethodPost, op.path("/cancel"), nil, nil)
}

// close releases the operation's resources on the gateway, once.
func (op *operation) close() error {
	op.mu.Lock()
	defer op.mu.Unlock()
	if op.closed {
		return nil
	}
	op.closed = true
	ctx, cancel := context.WithTimeout(context.Background(), op.s.c.timeout)
	defer cancel()
	return op.s.c.do(ctx, http.MethodDelete, op.path("/close"), nil, nil)
}

// poller waits between fetches that brought nothing: it starts fast
// (most statements answer within milliseconds) and backs off to 200ms.
type poller struct{ wait time.Duration }

func (p *poller) sleep(ctx context.Context) error {
	switch {
	case p.wait == 0:
		p.wait = 5 * time.Millisecond
	case p.wait < 200*time.Millisecond:
		p.wait = min(p.wait*2, 200*time.Millisecond)
	}
	t := time.NewTimer(p.wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (p *poller) reset() { p.wait = 0 }

// fetch reads one page, following uri verbatim.
func (op *operation) fetch(ctx context.Context, uri string) (*fetchBody, error) {
	var body fetchBody
	if err := op.s.c.do(ctx, http.MethodGet, uri, nil, &body); err != nil {
		return nil, err
	}
	return &body, nil
}

// run submits a statement and waits for its first answer: the kind of
// result and, for rows, the first page.
func (s *Session) run(ctx context.Context, stmt string) (*result.Result, error) {
	var resp struct {
		OperationHandle string `json:"operationHandle"`
	}
	if err := s.c.do(ctx, http.MethodPost, s.sessionPath("/statements"), map[string]any{"statement": stmt}, &resp); err != nil {
		return nil, err
	}
	op := &operation{s: s, handle: resp.OperationHandle}
	uri := op.path("/result/0?rowFormat=JSON")
	var p poller
	for {
		body, err := op.fetch(ctx, uri)
		if err != nil {
			if ctx.Err() != nil {
				op.cancel()
			}
			op.close()
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, err
		}
		if body.ResultType != resultNotReady {
			res, err := op.result(body)
			if err != nil {
				op.close()
				return nil, err
			}
			return res, nil
		}
		if body.NextResultURI != "" {
			uri = body.NextResultURI
		}
		if err := p.sleep(ctx); err != nil {
			op.cancel()
			op.close()
			return nil, err
		}
	}
}

// result builds the engine result from the first answered page. An
// acknowledgement (resultKind SUCCESS) and a submitted job are closed at
// once; rows stream through an iterator that owns the operation.
func (op *operation) result(first *fetchBody) (*result.Result, error) {
	if first.Results == nil {
		op.close()
		return result.Success(), nil
	}
	cols, err := first.Results.columns()
	if err != nil {
		return nil, err
	}
	switch {
	case first.ResultKind == "SUCCESS":
		op.close()
		return result.Success(), nil
	case !first.IsQueryResult && first.JobID != "":
		op.close()
		return result.Info(op.s.jobMessage(first.JobID)), nil
	}
	rows, err := first.Results.rows(cols, op.s.zone())
	if err != nil {
		return nil, err
	}
	streaming := !strings.EqualFold(op.s.Option("execution.runtime-mode"), "batch")
	it := &rowIter{op: op, buf: rows, next: first.NextResultURI, cols: cols, jobID: first.JobID}
	if first.ResultType == resultEOS {
		it.next = ""
	}
	return &result.Result{
		Kind:      result.KindRows,
		Columns:   cols,
		Rows:      it,
		IsQuery:   first.IsQueryResult,
		Changelog: first.IsQueryResult && streaming,
		Bounded:   !first.IsQueryResult || !streaming,
	}, nil
}

// jobMessage is what the Flink SQL client prints for a statement that
// submitted a job: the end of its execution under table.dml-sync, the job
// id otherwise.
func (s *Session) jobMessage(jobID string) string {
	if sync, _ := strconv.ParseBool(s.Option("table.dml-sync")); sync {
		return msgFinishStatement
	}
	return msgSubmittingStatement + "\n[INFO] " + msgStatementSubmitted + "\nJob ID: " + jobID + "\n"
}

// rowIter streams a result's rows page by page. It owns the operation:
// Close (or the end of the rows) closes it on the gateway; a cancelled
// context cancels it first.
type rowIter struct {
	op    *operation
	jobID string // the query's job, if it runs one
	buf   []result.Row
	next  string // the next page's URI; "" after EOS
	cols  []result.Column
	p     poller
	err   error
}

var _ result.RowIterator = (*rowIter)(nil)

// Next returns the next row, fetching pages as needed. When ctx is
// cancelled it stops the operation on the gateway (see stop) and returns
// ctx.Err().
func (it *rowIter) Next(ctx context.Context) (result.Row, bool, error) {
	for {
		if it.err != nil {
			return result.Row{}, false, it.err
		}
		if err := ctx.Err(); err != nil {
			it.stop()
			return result.Row{}, false, err
		}
		if len(it.buf) > 0 {
			r := it.buf[0]
			it.buf = it.buf[1:]
			return r, true, nil
		}
		if it.next == "" {
			return result.Row{}, false, it.op.close()
		}
		body, err := it.op.fetch(ctx, it.next)
		if err != nil {
			if ctx.Err() != nil {
				it.stop()
				return result.Row{}, false, ctx.Err()
			}
			it.err = statementError(err)
			return result.Row{}, false, it.err
		}
		switch body.ResultType {
		case resultEOS:
			it.next = ""
		default:
			if body.NextResultURI != "" {
				it.next = body.NextResultURI
			}
		}
		if body.Results != nil && len(body.Results.Data) > 0 {
			if it.cols == nil {
				if it.cols, err = body.Results.columns(); err != nil {
					it.err = statementError(err)
					return result.Row{}, false, it.err
				}
			}
			rows, err := body.Results.rows(it.cols, it.op.s.zone())
			if err != nil {
				it.err = statementError(err)
				return result.Row{}, false, it.err
			}
			it.buf = rows
			it.p.reset()
			continue
		}
		if it.next != "" {
			if err := it.p.sleep(ctx); err != nil {
				it.stop()
				return result.Row{}, false, err
			}
		}
	}
}

// stop ends an operation whose rows are no longer wanted, as the Flink SQL
// client does on Ctrl-C: cancel it (an operation still being submitted
// turns CANCELED) and close it, which stops the query's job (SHOW JOBS then
// lists it CANCELED).
func (it *rowIter) stop() {
	if it.next != "" {
		it.op.cancel()
		it.next = ""
	}
	it.err = context.Canceled
	_ = it.op.close()
}

// Close closes the operation on the gateway, cancelling it first when its
// rows were not read to the end (closing stops a running query's job).
func (it *rowIter) Close() error {
	if it.next != "" {
		it.op.cancel()
		it.next = ""
	}
	return it.op.close()
}

// OperationHandle returns the gateway's operation handle behind a result's
// rows, or "" when res does not stream rows from a gateway.
func OperationHandle(res *result.Result) string {
	if res == nil {
		return ""
	}
	if it, ok := res.Rows.(*rowIter); ok {
		return it.op.handle
	}
	return ""
}

// JobID returns the Flink job behind a query result from a gateway, or "".
func JobID(res *result.Result) string {
	if res == nil {
		return ""
	}
	if it, ok := res.Rows.(*rowIter); ok {
		return it.jobID
	}
	return ""
}

// OperationStatus asks the gateway for the status of an operation of this
// session (RUNNING, FINISHED, CANCELED...).
func (s *Session) OperationStatus(ctx context.Context, handle string) (string, error) {
	op := &operation{s: s, handle: handle}
	st, err := op.Status(ctx)
	if err != nil {
		return "", statementError(err)
	}
	return st, nil
}
