package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// packedNames returns the names a listing query selects (one column
// `name`), sorted. For the object listings SQLite packs the names into one
// value ("<bytes>:<name>" each, so a name may hold any character): a
// listing of 20,000 objects is one step through the driver instead of one
// per name. Other queries go through names. A listing is cached for the
// catalog version it was read at, as definitions are (cache.go).
func (s *Store) packedNames(ctx context.Context, query string, args ...any) ([]string, error) {
	q, ok := packedQuery(query)
	if !ok {
		return s.names(ctx, query, args...)
	}
	version, cached := s.current(ctx)
	key := listingKey(query, args)
	if cached {
		if names, ok := s.cachedNames(version, key); ok {
			return names, nil
		}
	}
	var text sql.NullString
	err := s.read(ctx, func() error { return s.db.QueryRowContext(ctx, q, args...).Scan(&text) })
	if err != nil {
		return nil, storeErr(err, "cannot read store %s", s.path)
	}
	names, err := unpackNames(text.String)
	if err != nil {
		return nil, storeErr(err, "cannot read store %s", s.path)
	}
	if !slices.IsSorted(names) {
		slices.Sort(names)
	}
	if cached {
		s.rememberNames(version, key, names)
	}
	return names, nil
}

// listingKey is the cache key of a listing query with its arguments.
func listingKey(query string, args []any) string {
	var b strings.Builder
	b.WriteString(query)
	for _, a := range args {
		fmt.Fprintf(&b, "\x00%v", a)
	}
	return b.String()
}

// packedQuery returns the packing form of a listing query.
func packedQuery(query string) (string, bool) {
	switch query {
	case `SELECT name FROM objects WHERE catalog = ? AND db = ? ORDER BY name`:
		return `SELECT group_concat(length(CAST(name AS BLOB)) || ':' || name, '') FROM
			(SELECT name FROM objects WHERE catalog = ? AND db = ? ORDER BY name)`, true
	case `SELECT name FROM objects WHERE catalog = ? AND db = ? AND kind = 'VIEW' ORDER BY name`:
		return `SELECT group_concat(length(CAST(name AS BLOB)) || ':' || name, '') FROM
			(SELECT name FROM objects WHERE catalog = ? AND db = ? AND kind = 'VIEW' ORDER BY name)`, true
	case `SELECT name FROM functions WHERE catalog = ? AND db = ? ORDER BY name`:
		return `SELECT group_concat(length(CAST(name AS BLOB)) || ':' || name, '') FROM
			(SELECT name FROM functions WHERE catalog = ? AND db = ? ORDER BY name)`, true
	}
	return "", false
}

// unpackNames splits "<bytes>:<name>..." into names that share the
// packed string's memory.
func unpackNames(s string) ([]string, error) {
	var names []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != ':' {
			i++
		}
		n, err := strconv.Atoi(s[:i])
		if err != nil || n < 0 || i+1+n > len(s) {
			return nil, fmt.Errorf("malformed name list at %q", s[:min(len(s), 20)])
		}
		names = append(names, s[i+1:i+1+n])
		s = s[i+1+n:]
	}
	return names, nil
}
