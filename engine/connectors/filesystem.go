package connectors

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"eddy/conf"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// The filesystem connector (connectors.md §4): 'path' is a directory of
// part files (or one file), read in name order; a partitioned table keeps
// its rows under Hive-style k=v/ directories and its data files hold only
// the non-partition columns. An INSERT writes each partition's rows to a
// hidden in-progress file in the table's directory and renames it into
// place at Commit, so a failed INSERT leaves the directory as it was.
// INSERT OVERWRITE removes the old part files of the partitions it writes
// (all of them for a table without partitions) at Commit: only the files
// a filesystem sink writes (ownedFiles), never another file that lies in
// the table's directory or below it. 'path' must be absolute.

// filesystemOptions are the options of Flink's FileSystemTableFactory.
func filesystemOptions() []string {
	return []string{
		"source.monitor-interval", "partition.default-name", "sink.rolling-policy.file-size",
		"sink.rolling-policy.rollover-interval", "sink.rolling-policy.check-interval",
		"sink.shuffle-by-partition.enable", "auto-compaction", "compaction.file-size",
		"sink.partition-commit.trigger", "sink.partition-commit.delay", "sink.partition-commit.policy.kind",
		"sink.partition-commit.policy.class", "sink.partition-commit.success-file.name",
		"partition.time-extractor.kind", "partition.time-extractor.class",
		"partition.time-extractor.timestamp-pattern", "sink.partition-commit.watermark-time-zone",
		"lookup.join.cache.ttl", "sink.parallelism", "source.path.regex-pattern",
	}
}

// filesystemFactory is the filesystem connector; its formats are reg's.
func filesystemFactory(reg *Registry) *Factory {
	return &Factory{
		Identifier: "filesystem",
		Validate: func(t *Table, sink bool) error {
			ft, err := newFileTable(reg, t)
			if err != nil {
				return err
			}
			return FormatVariantError(t.Options["format"], ft.lay.dataColumns(), sink)
		},
		Source: func(_ context.Context, _ *Env, t *Table) (Reader, error) {
			ft, err := newFileTable(reg, t)
			if err != nil {
				return nil, err
			}
			return openFileReader(ft)
		},
		Sink: func(_ context.Context, _ *Env, t *Table, spec WriteSpec) (Writer, error) {
			ft, err := newFileTable(reg, t)
			if err != nil {
				return nil, err
			}
			return openFileWriter(ft, spec)
		},
		Abilities: func(t *Table) Abilities {
			mode := reg.formatChangelog(t.Options)
			a := Abilities{Bounded: t.Options["source.monitor-interval"] == "", Projection: true,
				ReadableMetadata: fileMetadata(), Produces: mode, Accepts: mode, RefusesUpdates: true}
			// Filters on partition keys choose the files read; a format
			// with statistics skips parts of files by the others.
			if len(t.PartitionKeys) > 0 {
				a.Filters, a.Partitions = FilterCompare|FilterNullTest, true
			}
			if codec, err := reg.configureFormat(t.Options); err == nil {
				if _, ok := codec.(FilterBulkCodec); ok {
					a.Filters = FilterCompare | FilterNullTest
				}
			}
			return a
		},
	}
}

// fileMetadata returns the metadata keys of Flink's filesystem source.
func fileMetadata() []MetadataKey {
	return []MetadataKey{
		{Key: "file.path", Type: types.NewString().WithNullable(false)},
		{Key: "file.name", Type: types.NewString().WithNullable(false)},
		{Key: "file.size", Type: types.New(types.BigInt).WithNullable(false)},
		{Key: "file.modification-time", Type: types.NewTimestampLTZ(3).WithNullable(false)},
	}
}

// fileTable is a filesystem table with its options validated.
type fileTable struct {
	t     *Table
	codec Codec
	lay   *fileLayout
}

func newFileTable(reg *Registry, t *Table) (*fileTable, error) {
	o := t.Options
	optional := filesystemOptions()
	if id := o["format"]; id != "" {
		f, ok := reg.Format(id)
		if !ok {
			return nil, reg.unknownFormat(id)
		}
		optional = append(optional, f.Options...)
	}
	if err := CheckOptions("filesystem", o, []string{"connector", "path", "format"}, optional); err != nil {
		return nil, err
	}
	defaultPart := defaultPartitionName
	if d, ok := o["partition.default-name"]; ok {
		defaultPart = d
	}
	codec, err := reg.configureFormat(o)
	if err != nil {
		return nil, err
	}
	root := localPath(o["path"])
	if !filepath.IsAbs(root) {
		// CREATE TABLE resolves a relative path (ResolvePath); one still
		// relative here was stored before it did, and would be a
		// different directory in every shell's working directory.
		return nil, validationError("The path '%s' of filesystem table '%s' is relative. "+
			"Give an absolute path (ALTER TABLE ... SET ('path' = '...')).",
			o["path"], t.Name)
	}
	lay := newFileLayout(t, root, defaultPart)
	if _, ok := codec.(*parquetCodec); ok {
		if err := parquetUnsupported(lay.dataColumns()); err != nil {
			return nil, err
		}
	}
	return &fileTable{t: t, codec: codec, lay: lay}, nil
}

type fileReader struct {
	ft    *fileTable
	files []string
	file  *os.File   // the open file
	bulk  BulkReader // reading file
	pvals []any      // file's partition values
	mvals []any      // file's metadata values (Table.Metadata)
	// needed marks the table columns the query reads (nil: all of them);
	// cols are those columns in batch order (PushColumns).
	needed []bool
	cols   []int
	// monitor is 'source.monitor-interval' (0: scan once); seen holds the
	// files already read when monitoring.
	monitor time.Duration
	seen    map[string]bool
	// partFilters are the pushed filters on partition keys, which choose
	// the files read; dataFilters the others, over the data columns,
	// offered to a format with statistics (FilterBulkCodec).
	partFilters, dataFilters []RowFilter
	// opened counts the data files opened.
	opened int
	// mu makes Next safe to call from several goroutines (Concurrent).
	mu sync.Mutex
	// workers bounds the goroutines a file's format decodes on (0: its
	// own choice; WorkerCap).
	workers int
}

func openFileReader(ft *fileTable) (Reader, error) {
	t := ft.t
	files, err := dataFiles(ft.lay.root)
	if err != nil {
		return nil, err
	}
	if _, monitored := t.Options["source.monitor-interval"]; !monitored {
		// A bounded read of a path that is not there fails naming the path
		// as resolved, as Flink's file source does; a monitored directory
		// may appear later.
		if _, err := os.Stat(ft.lay.root); os.IsNotExist(err) {
			abs, _ := filepath.Abs(ft.lay.root)
			return nil, &Error{Exception: "FileNotFoundException",
				Msg: fmt.Sprintf("File %s does not exist or the user running eddy has insufficient permissions to access it.", abs)}
		}
	}
	r := &fileReader{ft: ft, files: files}
	if v, ok := t.Options["source.monitor-interval"]; ok {
		d, err := parseDuration("source.monitor-interval", v)
		if err != nil {
			return nil, err
		}
		if d <= 0 {
			return nil, validationError("The 'source.monitor-interval' option must be greater than 0, but was %s.", v)
		}
		r.monitor, r.seen = d, map[string]bool{}
		for _, f := range files {
			r.seen[f] = true
		}
	}
	if r.concurrent() {
		// The format decodes ahead on goroutines of its own.
		return r, nil
	}
	// The other formats are parsed on the prefetching goroutine, whose
	// batches several goroutines may take when their order carries no
	// meaning (a bounded, insert-only read).
	p := newPrefetchReader(r)
	p.shared = r.monitor == 0 && CodecChangelog(ft.codec) == InsertOnly
	return p, nil
}

// concurrent reports whether the reader's Next may be called from
// several goroutines: a bounded scan of Parquet files, whose row groups
// are decoded on goroutines of their own outside the reader's lock.
func (r *fileReader) concurrent() bool {
	_, pq := r.ft.codec.(*parquetCodec)
	return pq && r.monitor == 0
}

// Concurrent implements Concurrent.
func (r *fileReader) Concurrent() bool { return r.concurrent() }

// CapWorkers implements WorkerCap: every file's reader gets the bound.
func (r *fileReader) CapWorkers(n int) { r.workers = n }

var _ Pushdown = (*fileReader)(nil)

// PushFilters implements Pushdown: a filter on a partition key is applied
// exactly, by reading only the files of the partitions it keeps
// (partition pruning); the others are left to the caller, and a format
// with statistics uses them to skip parts of files.
func (r *fileReader) PushFilters(fs []RowFilter) []bool {
	taken := make([]bool, len(fs))
	lay := r.ft.lay
	for i, f := range fs {
		if j := slices.Index(lay.parts, f.Column); j >= 0 {
			taken[i] = true
			r.partFilters = append(r.partFilters, f)
			continue
		}
		if j := slices.Index(lay.data, f.Column); j >= 0 {
			df := f
			df.Column = j
			r.dataFilters = append(r.dataFilters, df)
			if fc, ok := r.ft.codec.(FilterBulkCodec); ok {
				taken[i] = fc.TakesFilter(r.ft.t.Columns[f.Column], f)
			}
		}
	}
	return taken
}

// keepPartition reports whether a file's partition values pass the pushed
// partition filters.
func (r *fileReader) keepPartition(pv []any) bool {
	for _, f := range r.partFilters {
		j := slices.Index(r.ft.lay.parts, f.Column)
		if !partitionFilterHolds(f, pv[j]) {
			return false
		}
	}
	return true
}

// partitionFilterHolds evaluates a pushed filter on a partition value as
// the engine would: a comparison with NULL is not true.
func partitionFilterHolds(f RowFilter, v any) bool {
	switch f.Op {
	case FilterIsNull:
		return v == nil
	case FilterIsNotNull:
		return v != nil
	}
	if v == nil {
		return false
	}
	var c int
	switch x := f.Value.(type) {
	case int64:
		n, ok := types.AsInt64(v)
		if !ok {
			return true
		}
		c = cmp.Compare(n, x)
	case float64:
		d, ok := v.(float64)
		if fl, isF := v.(float32); isF {
			d, ok = float64(fl), true
		}
		if !ok {
			return true
		}
		c = cmp.Compare(d, x)
	case string:
		s, ok := v.(string)
		if !ok {
			return true
		}
		c = strings.Compare(s, x)
	default:
		return true
	}
	switch f.Op {
	case FilterEq:
		return c == 0
	case FilterNe:
		return c != 0
	case FilterLt:
		return c < 0
	case FilterLe:
		return c <= 0
	case FilterGt:
		return c > 0
	case FilterGe:
		return c >= 0
	}
	return true
}

// PushColumns implements Pushdown: a bulk format converts only these
// columns' fields.
func (r *fileReader) PushColumns(cols []int) {
	r.cols = append([]int{}, cols...)
	r.needed = make([]bool, len(r.ft.t.Columns)+len(r.ft.t.Metadata))
	for _, c := range cols {
		r.needed[c] = true
	}
}

func (r *fileReader) Next(ctx context.Context) (*vector.Batch, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	b, err := r.next(ctx)
	if b == nil || err != nil || r.cols == nil {
		return b, err
	}
	out := &vector.Batch{Cols: make([]*vector.Vec, len(r.cols)), N: b.N, Kinds: b.Kinds}
	for i, c := range r.cols {
		out.Cols[i] = b.Cols[c]
	}
	return out.Inherit(b), nil
}

// next fills a batch from the files: the format appends to the data
// columns, the partition values are repeated per row, and the columns the
// query does not read are zero.
func (r *fileReader) next(ctx context.Context) (*vector.Batch, error) {
	ts := r.ft.t.ScanTypes()
	lay := r.ft.lay
	meta := len(r.ft.t.Columns)
	out := &vector.Batch{Cols: make([]*vector.Vec, len(ts))}
	dataCols := make([]*vector.Vec, len(lay.data))
	allocated := false
	alloc := func() {
		if allocated {
			return
		}
		allocated = true
		for i, t := range ts {
			if (r.needed == nil || r.needed[i]) && out.Cols[i] == nil {
				out.Cols[i] = vector.New(t, vector.BatchSize)
			}
		}
		for j, ci := range lay.data {
			dataCols[j] = out.Cols[ci]
		}
	}
	for out.N < vector.BatchSize {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if r.bulk == nil {
			if more, err := r.openNext(ctx, out.N); err != nil {
				return nil, err
			} else if !more {
				break
			}
		}
		var n int
		var eof, handed bool
		if br, ok := r.bulk.(batchReader); ok && out.N == 0 {
			// A batch the format decoded ahead becomes the batch's data
			// columns as it is.
			want := make([]bool, len(lay.data))
			for j, ci := range lay.data {
				want[j] = r.needed == nil || r.needed[ci]
			}
			vecs, k, end, ok, err := br.ReadBatch(want)
			if err != nil {
				return nil, err
			}
			if ok {
				if k > 0 {
					for j, ci := range lay.data {
						out.Cols[ci] = vecs[j]
					}
					out.Recycle = func() { br.Recycle(vecs) }
				}
				alloc()
				n, eof, handed = k, end, true
			}
		}
		if !handed {
			alloc()
			var err error
			n, eof, err = r.bulk.Read(dataCols, vector.BatchSize-out.N)
			if err != nil {
				return nil, err
			}
		}
		if kr, ok := r.bulk.(ChangelogBulkReader); ok {
			out.Kinds = appendKinds(out.Kinds, out.N, kr.Kinds())
		}
		for j, ci := range lay.parts {
			if v := out.Cols[ci]; v != nil {
				for range n {
					v.Append(r.pvals[j])
				}
			}
		}
		for j, x := range r.mvals {
			if v := out.Cols[meta+j]; v != nil {
				for range n {
					v.Append(x)
				}
			}
		}
		out.N += n
		if eof {
			if err := r.closeFile(); err != nil {
				return nil, err
			}
		}
		if handed && n > 0 {
			break
		}
	}
	if out.N == 0 {
		return nil, nil
	}
	if r.cols == nil {
		for i, t := range ts {
			if out.Cols[i] == nil {
				out.Cols[i] = vector.Make(t, out.N)
			}
		}
	}
	return out, nil
}

// openNext opens the next file (waiting for one when monitoring and the
// batch so far is empty). It returns false when there is none to read now.
func (r *fileReader) openNext(ctx context.Context, batched int) (bool, error) {
	for len(r.files) == 0 {
		if r.monitor == 0 || batched > 0 {
			return false, nil
		}
		if err := r.awaitFiles(ctx); err != nil {
			return false, err
		}
	}
	name := r.files[0]
	r.files = r.files[1:]
	lay := r.ft.lay
	pv, err := lay.partitionValues(name)
	if err != nil {
		return false, err
	}
	if !r.keepPartition(pv) {
		return r.openNext(ctx, batched)
	}
	r.opened++
	file, err := os.Open(name)
	if err != nil {
		return false, err
	}
	var needed []bool
	if r.needed != nil {
		needed = make([]bool, len(lay.data))
		for j, ci := range lay.data {
			needed[j] = r.needed[ci]
		}
	}
	mv, err := fileMetadataValues(file, name, r.ft.t.Metadata)
	if err != nil {
		file.Close()
		return false, err
	}
	r.pvals, r.mvals, r.file = pv, mv, file
	if fc, ok := r.ft.codec.(FilterBulkCodec); ok {
		r.bulk = fc.ReadBulkFiltered(file, name, lay.dataColumns(), needed, r.dataFilters)
	} else {
		r.bulk = OpenBulk(r.ft.codec, file, name, lay.dataColumns(), needed)
	}
	if c, ok := r.bulk.(WorkerCap); ok && r.workers > 0 {
		c.CapWorkers(r.workers)
	}
	return true, nil
}

// fileMetadataValues returns a file's values of the metadata columns, as
// Flink's file source gives them: the path without scheme, the base name,
// the size in bytes, the modification time in milliseconds.
func fileMetadataValues(file *os.File, name string, cols []MetadataColumn) ([]any, error) {
	if len(cols) == 0 {
		return nil, nil
	}
	st, err := file.Stat()
	if err != nil {
		return nil, err
	}
	path, err := filepath.Abs(name)
	if err != nil {
		return nil, err
	}
	keys := fileMetadata()
	vals := make([]any, len(cols))
	for i, c := range cols {
		var v any
		var from *types.Type
		for _, k := range keys {
			if k.Key == c.Key {
				from = k.Type
			}
		}
		switch c.Key {
		case "file.path":
			v = path
		case "file.name":
			v = filepath.Base(name)
		case "file.size":
			v = st.Size()
		case "file.modification-time":
			v = time.UnixMilli(st.ModTime().UnixMilli()).UTC()
		}
		if from == nil || v == nil {
			return nil, validationError("Connector 'filesystem' cannot read the metadata key '%s' of column '%s'.", c.Key, c.Name)
		}
		x, err := types.CastValue(v, from, c.Type)
		if err != nil {
			return nil, &Error{Exception: "IOException", Msg: fmt.Sprintf(
				"Failed to read metadata '%s' of '%s' as column '%s': %v", c.Key, name, c.Name, err)}
		}
		vals[i] = x
	}
	return vals, nil
}

func (r *fileReader) closeFile() error {
	if r.file == nil {
		return nil
	}
	if c, ok := r.bulk.(io.Closer); ok {
		c.Close()
	}
	err := r.file.Close()
	r.file, r.bulk = nil, nil
	return err
}

// awaitFiles waits one monitor interval and queues the files that
// appeared since the last listing (an unbounded filesystem source reads
// each new file once).
func (r *fileReader) awaitFiles(ctx context.Context) error {
	timer := time.NewTimer(r.monitor)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
	}
	files, err := dataFiles(r.ft.lay.root)
	if err != nil {
		return err
	}
	for _, f := range files {
		if !r.seen[f] {
			r.seen[f] = true
			r.files = append(r.files, f)
		}
	}
	return nil
}

func (r *fileReader) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closeFile()
}

// partFile is one in-progress part file of a writer.
type partFile struct {
	tmp    *os.File
	enc    RowEncoder
	count  *countingWriter
	opened time.Time
	dir    string // partition directory relative to the root, "" for none
	final  string
}

// countingWriter counts the bytes written to a part file (the rolling
// policy's file size).
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

// sinkPolicy is the filesystem sink's rolling and partition commit
// options (Flink's FileSystemConnectorOptions).
type sinkPolicy struct {
	fileSize    int64         // sink.rolling-policy.file-size
	rollover    time.Duration // sink.rolling-policy.rollover-interval
	successFile string        // the success file's name; "" when the policy has none
	delay       time.Duration // sink.partition-commit.delay
}

func newSinkPolicy(o map[string]string) (sinkPolicy, error) {
	p := sinkPolicy{fileSize: 128 << 20, rollover: 30 * time.Minute}
	if v, ok := o["sink.rolling-policy.file-size"]; ok {
		n, err := conf.ParseMemorySize(v)
		if err != nil || n <= 0 {
			return p, validationError("Invalid value for option 'sink.rolling-policy.file-size': '%s'.", v)
		}
		p.fileSize = n
	}
	for key, dst := range map[string]*time.Duration{"sink.rolling-policy.rollover-interval": &p.rollover,
		"sink.rolling-policy.check-interval": new(time.Duration), "sink.partition-commit.delay": &p.delay} {
		if v, ok := o[key]; ok {
			d, err := parseDuration(key, v)
			if err != nil {
				return p, err
			}
			*dst = d
		}
	}
	if v, ok := o["sink.partition-commit.trigger"]; ok && v != "process-time" && v != "partition-time" {
		return p, validationError("Invalid value for option 'sink.partition-commit.trigger': '%s'. Supported values are [process-time, partition-time].", v)
	}
	if kinds, ok := o["sink.partition-commit.policy.kind"]; ok {
		for _, k := range strings.Split(kinds, ",") {
			switch strings.TrimSpace(k) {
			case "success-file":
				p.successFile = "_SUCCESS"
				if n, ok := o["sink.partition-commit.success-file.name"]; ok {
					p.successFile = n
				}
			case "metastore":
				return p, validationError("Can not configure a 'metastore' partition commit policy for a file system table. You can only configure 'metastore' partition commit policy for a hive table.")
			case "custom":
				return p, validationError("The 'custom' partition commit policy names a Java class ('sink.partition-commit.policy.class'), which eddy cannot load.")
			default:
				return p, validationError("Unsupported partition commit policy '%s'. Supported policies are [metastore, success-file, custom].", strings.TrimSpace(k))
			}
		}
	}
	return p, nil
}

type fileWriter struct {
	ft        *fileTable
	policy    sinkPolicy
	overwrite bool
	streaming bool
	static    map[string]string
	id        string
	files     map[string]*partFile // the open part file of each partition directory
	order     []string
	rolled    []*partFile // part files complete before Commit
	seq       int         // the next part file's number
	// pending are the partition directories written and not yet
	// committed (success file), with the time of their first row.
	pending map[string]time.Time
}

func openFileWriter(ft *fileTable, spec WriteSpec) (Writer, error) {
	if spec.Overwrite && spec.Streaming {
		return nil, &Error{Exception: "IllegalStateException", Msg: "Streaming mode not support overwrite."}
	}
	policy, err := newSinkPolicy(ft.t.Options)
	if err != nil {
		return nil, err
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	id := hex.EncodeToString(b[:])
	id = id[:8] + "-" + id[8:12] + "-" + id[12:16] + "-" + id[16:20] + "-" + id[20:]
	return &fileWriter{ft: ft, policy: policy, overwrite: spec.Overwrite, streaming: spec.Streaming,
		static: spec.StaticPartition, id: id, files: map[string]*partFile{}, pending: map[string]time.Time{}}, nil
}

func (w *fileWriter) file(dir string) (*partFile, error) {
	if pf, ok := w.files[dir]; ok {
		if pf.count.n < w.policy.fileSize && time.Since(pf.opened) < w.policy.rollover {
			return pf, nil
		}
		// The rolling policy: the file is complete, the partition's next
		// rows go to a new one.
		if err := pf.enc.Flush(); err != nil {
			return nil, err
		}
		w.rolled = append(w.rolled, pf)
		delete(w.files, dir)
		w.order = slices.DeleteFunc(w.order, func(d string) bool { return d == dir })
	}
	root := w.ft.lay.root
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	name := fmt.Sprintf("part-%s-0-%d", w.id, w.seq)
	w.seq++
	tmp, err := os.CreateTemp(root, "."+name+".*.inprogress")
	if err != nil {
		return nil, err
	}
	count := &countingWriter{w: tmp}
	pf := &partFile{tmp: tmp, dir: dir, final: filepath.Join(root, dir, name), count: count, opened: time.Now(),
		enc: w.ft.codec.Encoder(count, w.ft.lay.dataColumns())}
	w.files[dir] = pf
	w.order = append(w.order, dir)
	if _, ok := w.pending[dir]; !ok {
		w.pending[dir] = time.Now()
	}
	return pf, nil
}

func (w *fileWriter) Write(ctx context.Context, b *vector.Batch) error {
	lay := w.ft.lay
	data := make([]any, len(lay.data))
	for i := range b.N {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		k := b.Kind(i)
		if (k == types.UpdateBefore || k == types.Delete) && CodecChangelog(w.ft.codec) == InsertOnly {
			return &Error{Exception: "TableException", Msg: fmt.Sprintf(
				"Table sink '%s' doesn't support consuming update and delete changes which is produced by node %s", w.ft.t.Name, "GroupAggregate")}
		}
		row := b.Row(i)
		for j, ci := range lay.data {
			data[j] = row[ci]
		}
		pf, err := w.file(lay.partitionDir(row))
		if err != nil {
			return err
		}
		if err := pf.enc.Write(k, data); err != nil {
			return err
		}
	}
	return nil
}

func (w *fileWriter) Commit(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return w.abortWith(err)
	}
	for _, dir := range w.order {
		pf := w.files[dir]
		if err := pf.enc.Flush(); err != nil {
			return w.abortWith(err)
		}
		w.rolled = append(w.rolled, pf)
	}
	for _, pf := range w.rolled {
		if err := pf.tmp.Sync(); err != nil {
			return w.abortWith(err)
		}
	}
	lay := w.ft.lay
	var old []string
	if w.overwrite {
		dirs := map[string]bool{}
		for _, pf := range w.rolled {
			dirs[pf.dir] = true
		}
		if len(lay.parts) == 0 {
			dirs[""] = true
		} else if len(w.static) == len(lay.parts) {
			row := make([]any, len(lay.cols))
			for _, ci := range lay.parts {
				row[ci] = w.static[lay.cols[ci].Name]
			}
			dirs[lay.partitionDir(row)] = true
		}
		for dir := range dirs {
			files, err := ownedFiles(filepath.Join(lay.root, dir))
			if err != nil {
				return w.abortWith(err)
			}
			old = append(old, files...)
		}
	}
	for i, pf := range w.rolled {
		if err := pf.tmp.Close(); err != nil {
			return w.abortWith(err)
		}
		if err := os.MkdirAll(filepath.Dir(pf.final), 0o755); err != nil {
			return w.abortWith(err)
		}
		if err := os.Rename(pf.tmp.Name(), pf.final); err != nil {
			return w.abortWith(err)
		}
		w.rolled[i] = nil
		delete(w.files, pf.dir)
	}
	w.rolled, w.order = nil, nil
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	return w.commitPartitions()
}

// commitPartitions writes the success file of the partitions the policy
// lets commit: in batch mode every partition written (the job ends), in
// streaming mode those whose first row is older than
// 'sink.partition-commit.delay' (the process-time trigger; the
// partition-time trigger is read the same way, as eddy's sink has no
// watermark).
func (w *fileWriter) commitPartitions() error {
	now := time.Now()
	for dir, first := range w.pending {
		if w.streaming && now.Sub(first) < w.policy.delay {
			continue
		}
		delete(w.pending, dir)
		if w.policy.successFile == "" {
			continue
		}
		f := filepath.Join(w.ft.lay.root, dir, w.policy.successFile)
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func (w *fileWriter) abortWith(err error) error { return errors.Join(err, w.Abort()) }

func (w *fileWriter) Abort() error {
	var err error
	for _, dir := range w.order {
		if pf, ok := w.files[dir]; ok {
			w.rolled = append(w.rolled, pf)
		}
	}
	for _, pf := range w.rolled {
		if pf != nil {
			pf.tmp.Close()
			if rmErr := os.Remove(pf.tmp.Name()); rmErr != nil && !os.IsNotExist(rmErr) {
				err = errors.Join(err, rmErr)
			}
		}
	}
	w.files, w.order, w.rolled = map[string]*partFile{}, nil, nil
	return err
}

// ownedFiles lists the part files directly in dir: the files a filesystem
// sink writes (part-<id>-<task>-<n>, and compacted-part-... of Flink's
// compaction), which INSERT OVERWRITE replaces. Files of other names and
// subdirectories are not the table's to remove.
func ownedFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		name := e.Name()
		if e.Type().IsRegular() && (strings.HasPrefix(name, "part-") || strings.HasPrefix(name, "compacted-part-")) {
			files = append(files, filepath.Join(dir, name))
		}
	}
	return files, nil
}

// ResolvePath makes the 'path' of a filesystem table's options absolute,
// resolving a relative one against the working directory once, when the
// table is created or altered (CREATE TABLE, CREATE TABLE AS, ALTER
// TABLE). Flink resolves a path on the cluster, in its processes' working
// directory; resolving it each time the table is read would make one
// catalog table a different directory in every shell. Options of other
// connectors are left as they are.
func ResolvePath(options map[string]string) error {
	p, ok := options["path"]
	if !ok || options["connector"] != "filesystem" || p == "" || strings.Contains(p, "://") || filepath.IsAbs(p) {
		return nil
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return err
	}
	options["path"] = abs
	return nil
}
