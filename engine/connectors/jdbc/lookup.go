package jdbc

import (
	"container/list"
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"eddy/engine/connectors"
	"eddy/engine/types"
)

// lookuper answers a lookup join's point lookups with
// SELECT cols FROM table WHERE k1 = ? AND ... (Flink's
// JdbcRowDataLookupFunction), retrying 'lookup.max-retries' times on a
// new connection, through a PARTIAL cache when 'lookup.cache' asks for one.
type lookuper struct {
	s     *spec
	keys  []int
	query string
	types []*types.Type
	conn  conn
	cache *lookupCache
	now   func() time.Time
}

func openLookup(s *spec, keys []int) *lookuper {
	d := s.dialect
	names := make([]string, len(s.t.Columns))
	for i, c := range s.t.Columns {
		names[i] = d.quote(c.Name)
	}
	conds := make([]string, len(keys))
	for i, k := range keys {
		conds[i] = d.quote(s.t.Columns[k].Name) + " = " + d.placeholder(i+1)
	}
	l := &lookuper{s: s, keys: keys, types: s.t.Types(), now: time.Now,
		query: "SELECT " + strings.Join(names, ", ") + " FROM " + d.quote(s.table) + " WHERE " + strings.Join(conds, " AND ")}
	if s.cache != nil {
		l.cache = newLookupCache(*s.cache)
	}
	return l
}

// Lookup implements connectors.Lookuper.
func (l *lookuper) Lookup(ctx context.Context, key []any) ([][]any, error) {
	for _, k := range key {
		if k == nil {
			return nil, nil // = NULL matches nothing
		}
	}
	var ck string
	if l.cache != nil {
		ck = cacheKey(key)
		if rows, ok := l.cache.get(ck, l.now()); ok {
			return rows, nil
		}
	}
	var err error
	for attempt := 0; attempt <= l.s.lookupRetry; attempt++ {
		if attempt > 0 {
			if l.conn != nil {
				_ = l.conn.close()
				l.conn = nil
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(min(time.Duration(attempt)*time.Second, l.s.maxRetryTimeout)):
			}
		}
		var rows [][]any
		rows, err = l.query1(ctx, key)
		if err == nil {
			if l.cache != nil {
				l.cache.put(ck, rows, l.now())
			}
			return rows, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if !l.s.transient(err) {
			break
		}
	}
	return nil, &connectors.Error{Exception: "RuntimeException", Msg: fmt.Sprintf("Execution of JDBC statement failed: %v", l.s.dbError("Failed to look up", err))}
}

func (l *lookuper) query1(ctx context.Context, key []any) ([][]any, error) {
	if l.conn == nil {
		conn, err := l.s.connect(ctx)
		if err != nil {
			return nil, err
		}
		l.conn = conn
	}
	args := make([]any, len(key))
	for i, k := range key {
		args[i] = l.s.dialect.param(k, l.types[l.keys[i]])
	}
	rs, err := l.conn.query(ctx, l.query, args)
	if err != nil {
		return nil, err
	}
	defer rs.close()
	var out [][]any
	for rs.next() {
		row := make([]any, len(l.types))
		if i, err := rs.row(l.types, row); err != nil {
			if i < 0 {
				return nil, err
			}
			return nil, &connectors.Error{Exception: "SQLException", Msg: fmt.Sprintf("Column '%s' of %s: %v", l.s.t.Columns[i].Name, l.s.table, err)}
		}
		out = append(out, row)
	}
	return out, rs.err()
}

// Close implements connectors.Lookuper.
func (l *lookuper) Close() error {
	if l.conn != nil {
		err := l.conn.close()
		l.conn = nil
		return err
	}
	return nil
}

func cacheKey(key []any) string {
	var sb strings.Builder
	for _, k := range key {
		fmt.Fprintf(&sb, "%T:%v\x00", k, k)
	}
	return sb.String()
}

// lookupCache is Flink's DefaultLookupCache: entries expire a time after
// they were written or last read, the least recently used one goes when
// the cache is full, and an empty answer is kept only with
// cache-missing-key.
type lookupCache struct {
	spec  cacheSpec
	mu    sync.Mutex
	items map[string]*list.Element
	lru   *list.List // front: most recently used
}

type cacheEntry struct {
	key            string
	rows           [][]any
	written, reads time.Time
}

func newLookupCache(s cacheSpec) *lookupCache {
	return &lookupCache{spec: s, items: map[string]*list.Element{}, lru: list.New()}
}

func (c *lookupCache) get(k string, now time.Time) ([][]any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[k]
	if !ok {
		return nil, false
	}
	e := el.Value.(*cacheEntry)
	if (c.spec.expireWrite > 0 && now.Sub(e.written) >= c.spec.expireWrite) ||
		(c.spec.expireAccess > 0 && now.Sub(e.reads) >= c.spec.expireAccess) {
		c.lru.Remove(el)
		delete(c.items, k)
		return nil, false
	}
	e.reads = now
	c.lru.MoveToFront(el)
	return e.rows, true
}

func (c *lookupCache) put(k string, rows [][]any, now time.Time) {
	if len(rows) == 0 && !c.spec.cacheMissing {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[k]; ok {
		c.lru.Remove(el)
	}
	c.items[k] = c.lru.PushFront(&cacheEntry{key: k, rows: rows, written: now, reads: now})
	for c.spec.maxRows > 0 && int64(c.lru.Len()) > c.spec.maxRows {
		last := c.lru.Back()
		c.lru.Remove(last)
		delete(c.items, last.Value.(*cacheEntry).key)
	}
}
