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

// partitionLayout returns the root and default partition name of a
// filesystem table's options, or ok false for another connector.
func partitionLayout(options map[string]string) (root, defaultPart string, ok bool) {
	if options["connector"] != "filesystem" || options["path"] == "" {
		return "", "", false
	}
	defaultPart = defaultPartitionName
	if d, set := options["partition.default-name"]; set {
		defaultPart = d
	}
	return localPath(options["path"]), defaultPart, true
}

// ListPartitions returns the partitions of a partitioned filesystem table,
// as SHOW PARTITIONS prints them ("k1=v1/k2=v2", values escaped as in the
// directory names), in name order: the k=v/ directories under its path,
// with the keys in order, whether or not they hold files yet (ALTER TABLE
// ADD PARTITION makes an empty one). filter keeps the partitions with
// these values. ok is false for a table of another connector.
func ListPartitions(options map[string]string, keys []string, filter map[string]string) (parts []string, ok bool, err error) {
	root, _, ok := partitionLayout(options)
	if !ok || len(keys) == 0 {
		return nil, ok, nil
	}
	var walk func(dir string, depth int, prefix []string) error
	walk = func(dir string, depth int, prefix []string) error {
		if depth == len(keys) {
			parts = append(parts, strings.Join(prefix, "/"))
			return nil
		}
		entries, err := os.ReadDir(dir)
		if os.IsNotExist(err) {
			return nil
		}
		if err != nil {
			return err
		}
		for _, e := range entries {
			k, v, found := strings.Cut(e.Name(), "=")
			if !e.IsDir() || !found || unescapePartition(k) != keys[depth] {
				continue
			}
			if want, set := filter[keys[depth]]; set && unescapePartition(v) != want {
				continue
			}
			if err := walk(filepath.Join(dir, e.Name()), depth+1, append(prefix, e.Name())); err != nil {
				return err
			}
		}
		return nil
	}
	err = walk(root, 0, nil)
	sort.Strings(parts)
	return parts, true, err
}

// PartitionDir returns the directory of a full partition spec of a
// filesystem table (spec gives a value for every key).
func PartitionDir(options map[string]string, keys []string, spec map[string]string) (string, bool) {
	root, defaultPart, ok := partitionLayout(options)
	if !ok {
		return "", false
	}
	segs := []string{root}
	for _, k := range keys {
		v := spec[k]
		if v == "" {
			v = defaultPart
		}
		segs = append(segs, escapePartition(k)+"="+escapePartition(v))
	}
	return filepath.Join(segs...), true
}

// AddPartition makes the directory of a partition of a filesystem table
// (ALTER TABLE ... ADD PARTITION); exists reports one already there.
func AddPartition(options map[string]string, keys []string, spec map[string]string) (exists bool, err error) {
	dir, ok := PartitionDir(options, keys, spec)
	if !ok {
		return false, nil
	}
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return true, nil
	}
	return false, os.MkdirAll(dir, 0o755)
}

// DropPartition removes a partition of a filesystem table (ALTER TABLE
// ... DROP PARTITION): its part files and success file, then its
// directory and the parents it leaves empty. A file eddy did not write
// stays, and so does its directory. exists is false when the partition
// has no directory.
func DropPartition(options map[string]string, keys []string, spec map[string]string) (exists bool, err error) {
	dir, ok := PartitionDir(options, keys, spec)
	if !ok {
		return false, nil
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return false, nil
	}
	files, err := ownedFiles(dir)
	if err != nil {
		return true, err
	}
	success := "_SUCCESS"
	if n, set := options["sink.partition-commit.success-file.name"]; set {
		success = n
	}
	files = append(files, filepath.Join(dir, success))
	for _, f := range files {
		if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
			return true, err
		}
	}
	root, _, _ := partitionLayout(options)
	for d := dir; d != root && strings.HasPrefix(d, root); d = filepath.Dir(d) {
		if os.Remove(d) != nil { // not empty: another partition's or a stranger's
			break
		}
	}
	return true, nil
}
