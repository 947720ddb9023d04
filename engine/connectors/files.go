package connectors

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"eddy/engine/types"
)

// Multi-file tables, shared by the connectors that keep rows in files: a
// table's 'path' is a directory of data files (or one file), listed in
// name order without hidden files (names starting with '.' or '_'); a
// partitioned table keeps its rows under Hive-style k=v/ directories and
// its data files hold only the non-partition columns.

// defaultPartitionName is 'partition.default-name”s default.
const defaultPartitionName = "__DEFAULT_PARTITION__"

func localPath(p string) string {
	return strings.TrimPrefix(p, "file://")
}

// dataFiles lists the visible data files under a path.
func dataFiles(root string) ([]string, error) {
	st, err := os.Stat(root)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	if !st.IsDir() {
		return []string{root}, nil
	}
	var files []string
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if p != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

// fileLayout is where a table's rows are in its files: its columns split
// into data columns (fields of the files) and partition columns (in the
// directory names under root).
type fileLayout struct {
	root        string
	cols        []Column
	data        []int // table column index of each file field
	parts       []int // table column index of each partition key, in key order
	defaultPart string
}

func newFileLayout(t *Table, root, defaultPart string) *fileLayout {
	l := &fileLayout{root: root, cols: t.Columns, defaultPart: defaultPart}
	isPart := map[string]bool{}
	for _, k := range t.PartitionKeys {
		isPart[k] = true
	}
	for i, c := range t.Columns {
		if !isPart[c.Name] {
			l.data = append(l.data, i)
		}
	}
	for _, k := range t.PartitionKeys {
		for i, c := range t.Columns {
			if c.Name == k {
				l.parts = append(l.parts, i)
			}
		}
	}
	return l
}

// dataColumns returns the fields of the data files.
func (l *fileLayout) dataColumns() []Column {
	out := make([]Column, len(l.data))
	for j, ci := range l.data {
		out[j] = l.cols[ci]
	}
	return out
}

// partitionValues reads the k=v directories between the root and a file:
// one value per partition key, NULL for the default partition name.
func (l *fileLayout) partitionValues(file string) ([]any, error) {
	vals := make([]any, len(l.parts))
	rel, err := filepath.Rel(l.root, filepath.Dir(file))
	if err != nil || len(l.parts) == 0 {
		return vals, nil
	}
	found := map[string]string{}
	for _, seg := range strings.Split(filepath.ToSlash(rel), "/") {
		if k, v, ok := strings.Cut(seg, "="); ok {
			found[unescapePartition(k)] = unescapePartition(v)
		}
	}
	for i, ci := range l.parts {
		col := l.cols[ci]
		s, ok := found[col.Name]
		if !ok || s == l.defaultPart {
			continue
		}
		v, err := types.CastValue(s, types.NewString(), col.Type)
		if err != nil {
			return nil, &Error{Exception: "IOException", Msg: fmt.Sprintf(
				"Failed to read partition value '%s' of column '%s' from '%s': %v", s, col.Name, file, err)}
		}
		vals[i] = v
	}
	return vals, nil
}

// partitionDir returns the k=v/... directory of a row of the table's
// columns ("" for a table without partitions). A value is written as the
// csv format writes it; NULL and the empty string are the default
// partition.
func (l *fileLayout) partitionDir(row []any) string {
	if len(l.parts) == 0 {
		return ""
	}
	segs := make([]string, len(l.parts))
	for i, ci := range l.parts {
		c := l.cols[ci]
		v := l.defaultPart
		if row[ci] != nil {
			if s := formatCSVField(row[ci], c.Type); s != "" {
				v = s
			}
		}
		segs[i] = escapePartition(c.Name) + "=" + escapePartition(v)
	}
	return filepath.Join(segs...)
}

// escapePartition escapes a partition name or value as Flink's
// PartitionPathUtils does (the characters that may not appear in a path).
func escapePartition(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 || strings.ContainsRune("\"#%'*/:=?\\\x7f{[]^", r) {
			fmt.Fprintf(&b, "%%%02X", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func unescapePartition(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if x, err := hex.DecodeString(s[i+1 : i+3]); err == nil {
				b.WriteByte(x[0])
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
