package sqlite

// A scan of a managed table runs on a read-only SQLite connection of its
// own, driven from C: one call steps the statement through a whole chunk of
// rows and copies integers, doubles and the bytes of texts and blobs into
// C buffers, so the per-value cost is SQLite's own, with no cgo call and no
// boxing per value. The sqlite3_* functions are the ones
// github.com/mattn/go-sqlite3 links into the binary (its amalgamation, or
// the system library under its libsqlite3 build tag); they are declared
// here rather than taken from a header, which that package does not
// export.

/*
#include <stdlib.h>
#include <string.h>

typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;
int sqlite3_open_v2(const char *filename, sqlite3 **ppDb, int flags, const char *zVfs);
int sqlite3_close_v2(sqlite3 *db);
int sqlite3_busy_timeout(sqlite3 *db, int ms);
int sqlite3_prepare_v2(sqlite3 *db, const char *zSql, int nByte, sqlite3_stmt **ppStmt, const char **pzTail);
int sqlite3_step(sqlite3_stmt *stmt);
int sqlite3_finalize(sqlite3_stmt *stmt);
int sqlite3_reset(sqlite3_stmt *stmt);
int sqlite3_column_type(sqlite3_stmt *stmt, int iCol);
long long sqlite3_column_int64(sqlite3_stmt *stmt, int iCol);
double sqlite3_column_double(sqlite3_stmt *stmt, int iCol);
const unsigned char *sqlite3_column_text(sqlite3_stmt *stmt, int iCol);
const void *sqlite3_column_blob(sqlite3_stmt *stmt, int iCol);
int sqlite3_column_bytes(sqlite3_stmt *stmt, int iCol);
int sqlite3_bind_int64(sqlite3_stmt *stmt, int i, long long v);
int sqlite3_bind_double(sqlite3_stmt *stmt, int i, double v);
int sqlite3_bind_text(sqlite3_stmt *stmt, int i, const char *v, int n, void (*destructor)(void *));
const char *sqlite3_errmsg(sqlite3 *db);
void sqlite3_interrupt(sqlite3 *db);
int sqlite3_exec(sqlite3 *db, const char *sql, int (*callback)(void *, int, char **, char **), void *arg, char **errmsg);
typedef struct sqlite3_blob sqlite3_blob;
int sqlite3_blob_open(sqlite3 *db, const char *zDb, const char *zTable, const char *zColumn, long long iRow, int flags, sqlite3_blob **ppBlob);
int sqlite3_blob_reopen(sqlite3_blob *b, long long iRow);
int sqlite3_blob_bytes(sqlite3_blob *b);
int sqlite3_blob_read(sqlite3_blob *b, void *z, int n, int iOffset);
int sqlite3_blob_close(sqlite3_blob *b);

// eddy_blob_seek points *b at the data blob of eddy_chunks row rowid,
// opening the handle on first use, and stores the blob's size in *size.
static int eddy_blob_seek(sqlite3 *db, sqlite3_blob **b, long long rowid, int *size) {
	int rc = *b == NULL ? sqlite3_blob_open(db, "main", "eddy_chunks", "data", rowid, 0, b)
	                    : sqlite3_blob_reopen(*b, rowid);
	if (rc == 0) {
		*size = sqlite3_blob_bytes(*b);
	}
	return rc;
}

// eddy_reader_setup tunes a fresh scan connection: a page cache of 8 MB
// instead of 2 MB. The file is not memory-mapped: mapped pages would count
// in the process's resident memory, which the memory budget bounds.
static int eddy_reader_setup(sqlite3 *db) {
	return sqlite3_exec(db, "PRAGMA cache_size = -8192", 0, 0, 0);
}

enum {
	EDDY_INT = 0,   // read with sqlite3_column_int64
	EDDY_REAL = 1,  // sqlite3_column_double
	EDDY_TEXT = 2,  // sqlite3_column_text, bytes into the arena
	EDDY_BLOB = 3   // sqlite3_column_blob, bytes into the arena
};

typedef struct {
	int kind;
	long long *ints;      // EDDY_INT values; EDDY_TEXT/EDDY_BLOB start offsets in the arena
	double *floats;       // EDDY_REAL values
	int *lens;            // EDDY_TEXT/EDDY_BLOB lengths
	unsigned char *nulls; // 1 for a NULL
} eddy_col;

typedef struct {
	sqlite3_stmt *stmt;
	int ncols;
	eddy_col *cols;
	char *arena;
	long long arena_len, arena_cap;
} eddy_scan;

static int eddy_bind_text(sqlite3_stmt *stmt, int i, const char *v, int n) {
	return sqlite3_bind_text(stmt, i, v, n, (void (*)(void *))-1); // SQLITE_TRANSIENT: SQLite copies
}

// eddy_fill steps s->stmt through at most max rows into the column
// buffers and stores the number of rows in *n. It returns the code of the
// last step: SQLITE_ROW (100) when the chunk is full, SQLITE_DONE (101) at
// the end, another code on an error (SQLITE_NOMEM when the arena cannot
// grow).
static int eddy_fill(eddy_scan *s, int max, int *n) {
	int i = 0, rc = 100;
	s->arena_len = 0;
	while (i < max) {
		rc = sqlite3_step(s->stmt);
		if (rc != 100) {
			break;
		}
		for (int c = 0; c < s->ncols; c++) {
			eddy_col *col = &s->cols[c];
			if (sqlite3_column_type(s->stmt, c) == 5) { // SQLITE_NULL
				col->nulls[i] = 1;
				switch (col->kind) {
				case EDDY_INT: col->ints[i] = 0; break;
				case EDDY_REAL: col->floats[i] = 0; break;
				default: col->ints[i] = s->arena_len; col->lens[i] = 0;
				}
				continue;
			}
			col->nulls[i] = 0;
			switch (col->kind) {
			case EDDY_INT:
				col->ints[i] = sqlite3_column_int64(s->stmt, c);
				break;
			case EDDY_REAL:
				col->floats[i] = sqlite3_column_double(s->stmt, c);
				break;
			default: {
				const void *p = col->kind == EDDY_TEXT ? (const void *)sqlite3_column_text(s->stmt, c)
				                                       : sqlite3_column_blob(s->stmt, c);
				int len = sqlite3_column_bytes(s->stmt, c);
				if (s->arena_len + len > s->arena_cap) {
					long long cap = s->arena_cap * 2;
					if (cap < s->arena_len + len) {
						cap = s->arena_len + len;
					}
					char *a = realloc(s->arena, cap);
					if (a == NULL) {
						*n = i;
						return 7; // SQLITE_NOMEM
					}
					s->arena = a;
					s->arena_cap = cap;
				}
				if (len > 0) {
					memcpy(s->arena + s->arena_len, p, len);
				}
				col->ints[i] = s->arena_len;
				col->lens[i] = len;
				s->arena_len += len;
			}
			}
		}
		i++;
	}
	*n = i;
	return rc;
}

// eddy_read_int steps a one-row statement, returns its first column as an
// integer (-1 when there is no row) and resets it, so that it holds no
// snapshot afterwards.
static long long eddy_read_int(sqlite3_stmt *stmt, int *rc) {
	long long v = -1;
	*rc = sqlite3_step(stmt);
	if (*rc == 100) {
		v = sqlite3_column_int64(stmt, 0);
		*rc = 0;
	} else if (*rc == 101) {
		*rc = 0;
	}
	sqlite3_reset(stmt);
	return v;
}

static eddy_scan *eddy_scan_new(int ncols, int rows) {
	eddy_scan *s = calloc(1, sizeof(eddy_scan));
	if (s == NULL) {
		return NULL;
	}
	s->ncols = ncols;
	s->cols = calloc(ncols > 0 ? ncols : 1, sizeof(eddy_col));
	s->arena_cap = 64 * 1024;
	s->arena = malloc(s->arena_cap);
	int ok = s->cols != NULL && s->arena != NULL;
	for (int c = 0; ok && c < ncols; c++) {
		eddy_col *col = &s->cols[c];
		col->ints = calloc(rows, sizeof(long long));
		col->floats = calloc(rows, sizeof(double));
		col->lens = calloc(rows, sizeof(int));
		col->nulls = calloc(rows, 1);
		ok = col->ints != NULL && col->floats != NULL && col->lens != NULL && col->nulls != NULL;
	}
	if (!ok) {
		for (int c = 0; s->cols != NULL && c < ncols; c++) {
			free(s->cols[c].ints); free(s->cols[c].floats); free(s->cols[c].lens); free(s->cols[c].nulls);
		}
		free(s->cols); free(s->arena); free(s);
		return NULL;
	}
	return s;
}

static void eddy_scan_free(eddy_scan *s) {
	if (s == NULL) {
		return;
	}
	if (s->stmt != NULL) {
		sqlite3_finalize(s->stmt);
	}
	for (int c = 0; c < s->ncols; c++) {
		free(s->cols[c].ints); free(s->cols[c].floats); free(s->cols[c].lens); free(s->cols[c].nulls);
	}
	free(s->cols); free(s->arena); free(s);
}
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"unsafe"
)

// SQLite result codes and open flags used here.
const (
	sqliteOK    = 0
	sqliteNoMem = 7
	sqliteRow   = 100
	sqliteDone  = 101

	sqliteOpenReadOnly = 0x00000001
	sqliteOpenNoMutex  = 0x00008000
	sqliteOpenURI      = 0x00000040
)

// cChunkRows is the number of rows one eddy_fill call may step through.
const cChunkRows = 1024

// readPool keeps the idle read-only connections of a store, so that a scan
// does not pay for opening the file and reading its schema.
type readPool struct {
	mu     sync.Mutex
	idle   []*C.sqlite3
	closed bool
}

// maxIdleReaders bounds the connections a store keeps open between scans.
const maxIdleReaders = 4

func (p *readPool) get(path string) (*C.sqlite3, error) {
	return p.getTuned(path, true)
}

// getTuned returns a pooled connection or opens one; tune enlarges the
// page cache, which pays for scans but not for one-row reads.
func (p *readPool) getTuned(path string, tune bool) (*C.sqlite3, error) {
	p.mu.Lock()
	if n := len(p.idle); n > 0 && !p.closed {
		db := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return db, nil
	}
	p.mu.Unlock()
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var db *C.sqlite3
	// NOMUTEX: a connection serves one scan at a time, which the cursor
	// serialises; sqlite3_interrupt needs no mutex.
	// URI: a store on a read-only location is opened by a file: name
	// (Store.name); a plain path opens as before.
	rc := C.sqlite3_open_v2(cpath, &db, sqliteOpenReadOnly|sqliteOpenNoMutex|sqliteOpenURI, nil)
	if rc != sqliteOK {
		err := fmt.Errorf("cannot open %s for reading: %s", path, errText(db))
		if db != nil {
			C.sqlite3_close_v2(db)
		}
		return nil, err
	}
	C.sqlite3_busy_timeout(db, C.int(busyTimeout.Milliseconds()))
	if !tune {
		return db, nil
	}
	if rc := C.eddy_reader_setup(db); rc != sqliteOK {
		err := fmt.Errorf("cannot set up a read connection to %s: %s", path, errText(db))
		C.sqlite3_close_v2(db)
		return nil, err
	}
	return db, nil
}

func (p *readPool) put(db *C.sqlite3) {
	p.mu.Lock()
	if !p.closed && len(p.idle) < maxIdleReaders {
		p.idle = append(p.idle, db)
		db = nil
	}
	p.mu.Unlock()
	if db != nil {
		C.sqlite3_close_v2(db)
	}
}

func (p *readPool) close() {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	for _, db := range idle {
		C.sqlite3_close_v2(db)
	}
}

func errText(db *C.sqlite3) string {
	if db == nil {
		return "out of memory"
	}
	return C.GoString(C.sqlite3_errmsg(db))
}

// cColumnKind says how the C loop reads a column.
type cColumnKind int

const (
	cInt  cColumnKind = C.EDDY_INT
	cReal cColumnKind = C.EDDY_REAL
	cText cColumnKind = C.EDDY_TEXT
	cBlob cColumnKind = C.EDDY_BLOB
)

// cArg is a parameter of a scan's statement: int64, float64 or string.
type cArg = any

// cCursor is a statement stepped in chunks on a pooled read connection.
type cCursor struct {
	pool *readPool
	mu   sync.Mutex // guards db against the cancellation callback
	db   *C.sqlite3
	scan *C.eddy_scan
	cols []cColumnKind
	// interrupted is set when sqlite3_interrupt was called on db; such a
	// connection is closed rather than pooled.
	interrupted bool
	stop        func() bool
	done        bool
	// shared is set when the connection belongs to the cursor's owner.
	shared bool
}

// openCursor prepares query on a read connection of the store at path and
// binds args (?1, ?2, ...). Cancelling ctx interrupts a running step.
func openCursor(ctx context.Context, pool *readPool, path, query string, args []cArg, cols []cColumnKind) (*cCursor, error) {
	db, err := pool.get(path)
	if err != nil {
		return nil, err
	}
	cur, err := openCursorOn(ctx, pool, db, false, query, args, cols)
	if err != nil && cur == nil {
		pool.put(db)
	}
	return cur, err
}

// openCursorOn is openCursor on the read connection db; when shared, the
// cursor neither closes it nor returns it to the pool, and cancelling ctx
// does not interrupt it (its owner does).
func openCursorOn(ctx context.Context, pool *readPool, db *C.sqlite3, shared bool, query string, args []cArg, cols []cColumnKind) (*cCursor, error) {
	cur := &cCursor{pool: pool, db: db, cols: cols, shared: shared}
	cur.scan = C.eddy_scan_new(C.int(len(cols)), cChunkRows)
	if cur.scan == nil {
		return nil, errors.New("out of memory")
	}
	ccols := unsafe.Slice(cur.scan.cols, max(len(cols), 1))
	for i, k := range cols {
		ccols[i].kind = C.int(k)
	}
	cq := C.CString(query)
	defer C.free(unsafe.Pointer(cq))
	if rc := C.sqlite3_prepare_v2(db, cq, -1, &cur.scan.stmt, nil); rc != sqliteOK {
		err := errors.New(errText(db))
		cur.Close()
		return nil, err
	}
	for i, a := range args {
		var rc C.int
		switch v := a.(type) {
		case int64:
			rc = C.sqlite3_bind_int64(cur.scan.stmt, C.int(i+1), C.longlong(v))
		case float64:
			rc = C.sqlite3_bind_double(cur.scan.stmt, C.int(i+1), C.double(v))
		case string:
			cs := C.CString(v)
			rc = C.eddy_bind_text(cur.scan.stmt, C.int(i+1), cs, C.int(len(v)))
			C.free(unsafe.Pointer(cs))
		default:
			cur.Close()
			return nil, fmt.Errorf("cannot bind a %T", a)
		}
		if rc != sqliteOK {
			err := errors.New(errText(db))
			cur.Close()
			return nil, err
		}
	}
	if !shared {
		cur.stop = context.AfterFunc(ctx, cur.interrupt)
	}
	return cur, nil
}

func (c *cCursor) interrupt() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.db != nil {
		C.sqlite3_interrupt(c.db)
		c.interrupted = true
	}
}

// cChunk is one filled chunk: views of the C buffers, valid until the
// next fill.
type cChunk struct {
	n     int
	arena []byte // the texts and blobs of every column
	cols  []cColumn
}

// cColumn views the buffers of one column: ints holds integers or, for
// texts and blobs, start offsets in the arena, with lens their lengths;
// nulls[i] != 0 marks a NULL.
type cColumn struct {
	ints   []int64
	floats []float64
	lens   []int32
	nulls  []byte
}

// fill steps through the next chunk; n == 0 at the end.
func (c *cCursor) fill(ctx context.Context, maxRows int) (cChunk, error) {
	if c.done {
		return cChunk{}, nil
	}
	if err := ctx.Err(); err != nil {
		return cChunk{}, err
	}
	var n C.int
	rc := C.eddy_fill(c.scan, C.int(min(maxRows, cChunkRows)), &n)
	switch rc {
	case sqliteRow:
	case sqliteDone:
		c.done = true
	default:
		if err := ctx.Err(); err != nil {
			return cChunk{}, err
		}
		if rc == sqliteNoMem {
			return cChunk{}, errors.New("out of memory")
		}
		return cChunk{}, errors.New(errText(c.db))
	}
	ch := cChunk{n: int(n), cols: make([]cColumn, len(c.cols))}
	ccols := unsafe.Slice(c.scan.cols, max(len(c.cols), 1))
	for i := range c.cols {
		col := &ccols[i]
		ch.cols[i] = cColumn{
			ints:   unsafe.Slice((*int64)(unsafe.Pointer(col.ints)), ch.n),
			floats: unsafe.Slice((*float64)(unsafe.Pointer(col.floats)), ch.n),
			lens:   unsafe.Slice((*int32)(unsafe.Pointer(col.lens)), ch.n),
			nulls:  unsafe.Slice((*byte)(unsafe.Pointer(col.nulls)), ch.n),
		}
	}
	if c.scan.arena_len > 0 {
		ch.arena = unsafe.Slice((*byte)(unsafe.Pointer(c.scan.arena)), int(c.scan.arena_len))
	}
	if c.done {
		// Finalizing at once ends the read transaction, so a finished scan
		// holds no snapshot while the query goes on with its rows.
		c.finalize()
	}
	return ch, nil
}

func (c *cCursor) finalize() {
	if c.scan != nil && c.scan.stmt != nil {
		C.sqlite3_finalize(c.scan.stmt)
		c.scan.stmt = nil
	}
}

// Close finalizes the statement and returns the connection to the pool.
func (c *cCursor) Close() error {
	if c.stop != nil {
		c.stop()
	}
	c.mu.Lock()
	db := c.db
	c.db = nil
	interrupted := c.interrupted
	c.mu.Unlock()
	if c.scan != nil {
		// eddy_scan_free frees every buffer; chunks handed out before are
		// copied by then.
		C.eddy_scan_free(c.scan)
		c.scan = nil
	}
	if db == nil || c.shared {
		return nil
	}
	if interrupted {
		C.sqlite3_close_v2(db)
	} else {
		c.pool.put(db)
	}
	return nil
}

// intReader runs one constant single-value query again and again on a
// read connection of its own, one cgo call a run: the catalog version
// that every lookup checks.
type intReader struct {
	mu   sync.Mutex
	db   *C.sqlite3
	stmt *C.sqlite3_stmt
	bad  bool // opening failed: callers use database/sql instead
}

// read returns the query's value; ok is false when the reader cannot be
// used.
func (r *intReader) read(path, query string) (v int64, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.bad {
		return 0, false
	}
	if r.db == nil {
		var p readPool
		db, err := p.getTuned(path, false)
		if err != nil {
			r.bad = true
			return 0, false
		}
		cq := C.CString(query)
		defer C.free(unsafe.Pointer(cq))
		if rc := C.sqlite3_prepare_v2(db, cq, -1, &r.stmt, nil); rc != sqliteOK {
			C.sqlite3_close_v2(db)
			r.bad = true
			return 0, false
		}
		r.db = db
	}
	var rc C.int
	n := C.eddy_read_int(r.stmt, &rc)
	if rc != sqliteOK {
		return 0, false
	}
	return int64(n), true
}

func (r *intReader) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stmt != nil {
		C.sqlite3_finalize(r.stmt)
		r.stmt = nil
	}
	if r.db != nil {
		C.sqlite3_close_v2(r.db)
		r.db = nil
	}
	r.bad = true
}

// cStmt is a prepared statement on a read connection, stepped one row at
// a time: the chunk scans' few queries of metadata and blobs.
type cStmt struct {
	db   *C.sqlite3
	stmt *C.sqlite3_stmt
}

// execOn runs a statement without rows (BEGIN, COMMIT) on db.
func execOn(db *C.sqlite3, q string) error {
	cq := C.CString(q)
	defer C.free(unsafe.Pointer(cq))
	if rc := C.sqlite3_exec(db, cq, nil, nil, nil); rc != sqliteOK {
		return errors.New(errText(db))
	}
	return nil
}

func prepareOn(db *C.sqlite3, q string) (*cStmt, error) {
	cq := C.CString(q)
	defer C.free(unsafe.Pointer(cq))
	st := &cStmt{db: db}
	if rc := C.sqlite3_prepare_v2(db, cq, -1, &st.stmt, nil); rc != sqliteOK {
		return nil, errors.New(errText(db))
	}
	return st, nil
}

// bind binds integer parameters ?1, ?2, ... after resetting the statement.
func (s *cStmt) bind(args ...int64) error {
	C.sqlite3_reset(s.stmt)
	for i, a := range args {
		if rc := C.sqlite3_bind_int64(s.stmt, C.int(i+1), C.longlong(a)); rc != sqliteOK {
			return errors.New(errText(s.db))
		}
	}
	return nil
}

// step steps to the next row; false at the end.
func (s *cStmt) step() (bool, error) {
	switch rc := C.sqlite3_step(s.stmt); rc {
	case sqliteRow:
		return true, nil
	case sqliteDone:
		return false, nil
	default:
		return false, errors.New(errText(s.db))
	}
}

func (s *cStmt) int64(col int) int64 {
	return int64(C.sqlite3_column_int64(s.stmt, C.int(col)))
}

// value returns column col as int64, float64, string or nil.
func (s *cStmt) value(col int) any {
	switch C.sqlite3_column_type(s.stmt, C.int(col)) {
	case 1: // SQLITE_INTEGER
		return int64(C.sqlite3_column_int64(s.stmt, C.int(col)))
	case 2: // SQLITE_FLOAT
		return float64(C.sqlite3_column_double(s.stmt, C.int(col)))
	case 3, 4: // SQLITE_TEXT, SQLITE_BLOB
		p := C.sqlite3_column_text(s.stmt, C.int(col))
		n := C.sqlite3_column_bytes(s.stmt, C.int(col))
		return C.GoStringN((*C.char)(unsafe.Pointer(p)), n)
	}
	return nil
}

// blob returns a copy of blob column col.
func (s *cStmt) blob(col int) []byte {
	p := C.sqlite3_column_blob(s.stmt, C.int(col))
	n := C.sqlite3_column_bytes(s.stmt, C.int(col))
	if p == nil || n == 0 {
		return []byte{}
	}
	return C.GoBytes(p, n)
}

// chunkBlob reads column chunks' data blobs by rowid through one
// incremental-blob handle: SQLite reads a blob's overflow pages straight
// into the caller's buffer, with no copy of its own in between.
type chunkBlob struct {
	db *C.sqlite3
	b  *C.sqlite3_blob
}

// readInto returns the data blob of eddy_chunks row rowid, read into buf,
// which it grows when too small.
func (cb *chunkBlob) readInto(rowid int64, buf []byte) ([]byte, error) {
	var size C.int
	if rc := C.eddy_blob_seek(cb.db, &cb.b, C.longlong(rowid), &size); rc != sqliteOK {
		return nil, errors.New(errText(cb.db))
	}
	n := int(size)
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if n == 0 {
		return buf, nil
	}
	if rc := C.sqlite3_blob_read(cb.b, unsafe.Pointer(&buf[0]), size, 0); rc != sqliteOK {
		return nil, errors.New(errText(cb.db))
	}
	return buf, nil
}

// close closes the handle; it may be called more than once.
func (cb *chunkBlob) close() {
	if cb != nil && cb.b != nil {
		C.sqlite3_blob_close(cb.b)
		cb.b = nil
	}
}

// finalize ends the statement; it may be called more than once.
func (s *cStmt) finalize() {
	if s != nil && s.stmt != nil {
		C.sqlite3_finalize(s.stmt)
		s.stmt = nil
	}
}

// readConn is a read connection taken from a pool by its user (a chunk
// scan), who returns it with release.
type readConn struct {
	db *C.sqlite3
}

// conn takes a read connection of the store at path.
func (p *readPool) conn(path string) (readConn, error) {
	db, err := p.get(path)
	return readConn{db: db}, err
}

// release returns the connection to the pool, or closes it when broken
// (interrupted).
func (p *readPool) release(c readConn, broken bool) {
	if c.db == nil {
		return
	}
	if broken {
		C.sqlite3_close_v2(c.db)
		return
	}
	p.put(c.db)
}

func (c readConn) interrupt()                       { C.sqlite3_interrupt(c.db) }
func (c readConn) exec(q string) error              { return execOn(c.db, q) }
func (c readConn) prepare(q string) (*cStmt, error) { return prepareOn(c.db, q) }
func (c readConn) errText() string                  { return errText(c.db) }
func (c readConn) cursor(ctx context.Context, pool *readPool, q string, args []cArg, cols []cColumnKind) (*cCursor, error) {
	return openCursorOn(ctx, pool, c.db, true, q, args, cols)
}
