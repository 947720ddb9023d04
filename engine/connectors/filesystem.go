package connectors

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"eddy/catalogs"
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
// (all of them for a table without partitions) at Commit.

// defaultPartitionName is 'partition.default-name”s default.
const defaultPartitionName = "__DEFAULT_PARTITION__"

var filesystemOptions = []string{
	"source.monitor-interval", "partition.default-name", "sink.rolling-policy.file-size",
	"sink.rolling-policy.rollover-interval", "sink.rolling-policy.check-interval",
	"sink.shuffle-by-partition.enable", "auto-compaction", "compaction.file-size",
	"sink.partition-commit.trigger", "sink.partition-commit.delay", "sink.partition-commit.policy.kind",
	"sink.partition-commit.policy.class", "sink.partition-commit.success-file.name",
	"partition.time-extractor.kind", "partition.time-extractor.class",
	"partition.time-extractor.timestamp-pattern", "sink.partition-commit.watermark-time-zone",
	"lookup.join.cache.ttl", "sink.parallelism", "source.path.regex-pattern",
}

var csvFormatOptions = []string{
	"csv.field-delimiter", "csv.disable-quote-character", "csv.quote-character", "csv.allow-comments",
	"csv.ignore-parse-errors", "csv.array-element-delimiter", "csv.escape-character", "csv.null-literal",
	"csv.write-bigdecimal-in-scientific-notation",
}

var jsonFormatOptions = []string{
	"json.fail-on-missing-field", "json.ignore-parse-errors", "json.timestamp-format.standard",
	"json.map-null-key.mode", "json.map-null-key.literal", "json.encode.decimal-as-plain-number",
	"json.encode.ignore-null-fields", "decode.json-parser.enabled",
}

// fileFormat holds a filesystem table's validated options.
type fileFormat struct {
	json          bool
	root          string
	delim         rune
	quote         rune
	noQuote       bool // 'csv.disable-quote-character'
	escape        rune // 'csv.escape-character', 0 for none
	allowComments bool
	ignoreErrors  bool
	failOnMissing bool
	isoTimestamps bool
	nullLiteral   *string
	defaultPart   string
}

func localPath(p string) string {
	return strings.TrimPrefix(p, "file://")
}

func newFileFormat(t *Table) (*fileFormat, error) {
	o := t.Options
	optional := append([]string{}, filesystemOptions...)
	switch o["format"] {
	case "csv":
		optional = append(optional, csvFormatOptions...)
	case "json":
		optional = append(optional, jsonFormatOptions...)
	case "":
	default:
		return nil, validationError("Could not find any factory for identifier '%s' that implements 'org.apache.flink.table.factories.DeserializationFormatFactory' in the classpath.\n\nAvailable factory identifiers are:\n\ncsv\njson", o["format"])
	}
	if err := checkOptions("filesystem", o, []string{"connector", "path", "format"}, optional); err != nil {
		return nil, err
	}
	f := &fileFormat{json: o["format"] == "json", root: localPath(o["path"]), delim: ',', quote: '"',
		defaultPart: defaultPartitionName}
	if d, ok := o["partition.default-name"]; ok {
		f.defaultPart = d
	}
	boolOpt := func(key string, dst *bool) error {
		if v, ok := o[key]; ok {
			b, err := parseBool(key, v)
			if err != nil {
				return err
			}
			*dst = b
		}
		return nil
	}
	if f.json {
		if err := boolOpt("json.ignore-parse-errors", &f.ignoreErrors); err != nil {
			return nil, err
		}
		if err := boolOpt("json.fail-on-missing-field", &f.failOnMissing); err != nil {
			return nil, err
		}
		if f.ignoreErrors && f.failOnMissing {
			return nil, validationError("fail-on-missing-field and ignore-parse-errors shouldn't both be true.")
		}
		switch std := o["json.timestamp-format.standard"]; std {
		case "", "SQL":
		case "ISO-8601":
			f.isoTimestamps = true
		default:
			return nil, validationError("Unsupported value '%s' for timestamp-format.standard. Supported values are [SQL, ISO-8601].", std)
		}
		return f, nil
	}
	if d, ok := o["csv.field-delimiter"]; ok {
		d = strings.ReplaceAll(d, `\t`, "\t")
		r := []rune(d)
		if len(r) != 1 {
			return nil, validationError("Option 'csv.field-delimiter' must be a string with single character, but was: %s", o["csv.field-delimiter"])
		}
		f.delim = r[0]
	}
	if err := boolOpt("csv.disable-quote-character", &f.noQuote); err != nil {
		return nil, err
	}
	_, hasQuote := o["csv.quote-character"]
	if f.noQuote && hasQuote {
		return nil, validationError("Format cannot define a quote character and disabled quote character at the same time.")
	}
	if q, ok := o["csv.quote-character"]; ok {
		r := []rune(q)
		if len(r) != 1 {
			return nil, validationError("Option 'csv.quote-character' must be a string with single character, but was: %s", q)
		}
		f.quote = r[0]
	}
	if e, ok := o["csv.escape-character"]; ok {
		r := []rune(e)
		if len(r) != 1 {
			return nil, validationError("Option 'csv.escape-character' must be a string with single character, but was: %s", e)
		}
		f.escape = r[0]
	}
	if err := boolOpt("csv.ignore-parse-errors", &f.ignoreErrors); err != nil {
		return nil, err
	}
	if err := boolOpt("csv.allow-comments", &f.allowComments); err != nil {
		return nil, err
	}
	if n, ok := o["csv.null-literal"]; ok {
		f.nullLiteral = &n
	}
	return f, nil
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

// layout splits a table's columns into data columns (in the files) and
// partition columns (in the directory names).
type layout struct {
	data  []int // table column index of each file field
	parts []int // table column index of each partition key, in key order
}

func layoutOf(t *Table) layout {
	var l layout
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

// rowDecoder reads one file's rows into the data columns of row.
type rowDecoder interface {
	// next fills row and returns false at the end of the file.
	next(row []any) (bool, error)
	close() error
}

type fileReader struct {
	t      *Table
	f      *fileFormat
	lay    layout
	files  []string
	dec    rowDecoder       // the open file of the json format (and of csv with multi-byte options)
	csv    *csvBatchDecoder // the open file of the csv format
	pvals  []any
	dataTs []*types.Type
	// needed marks the table columns the query reads (nil: all of them);
	// cols are those columns in batch order (PushColumns).
	needed []bool
	cols   []int
	// monitor is 'source.monitor-interval' (0: scan once); seen holds the
	// files already read when monitoring.
	monitor time.Duration
	seen    map[string]bool
}

func openFileReader(_ context.Context, t *Table) (Reader, error) {
	f, err := newFileFormat(t)
	if err != nil {
		return nil, err
	}
	files, err := dataFiles(f.root)
	if err != nil {
		return nil, err
	}
	if _, monitored := t.Options["source.monitor-interval"]; !monitored {
		// A bounded read of a path that is not there fails naming the path
		// as resolved, as Flink's file source does; a monitored directory
		// may appear later.
		if _, err := os.Stat(f.root); os.IsNotExist(err) {
			abs, _ := filepath.Abs(f.root)
			return nil, &Error{Exception: "FileNotFoundException",
				Msg: fmt.Sprintf("File %s does not exist or the user running eddy has insufficient permissions to access it.", abs)}
		}
	}
	r := &fileReader{t: t, f: f, lay: layoutOf(t), files: files}
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
	ts := t.Types()
	for _, i := range r.lay.data {
		r.dataTs = append(r.dataTs, ts[i])
	}
	return newPrefetchReader(r), nil
}

// partitionValues reads the k=v directories between the root and a file.
func (r *fileReader) partitionValues(file string) ([]any, error) {
	vals := make([]any, len(r.lay.parts))
	rel, err := filepath.Rel(r.f.root, filepath.Dir(file))
	if err != nil || len(r.lay.parts) == 0 {
		return vals, nil
	}
	found := map[string]string{}
	for _, seg := range strings.Split(filepath.ToSlash(rel), "/") {
		if k, v, ok := strings.Cut(seg, "="); ok {
			found[unescapePartition(k)] = unescapePartition(v)
		}
	}
	for i, ci := range r.lay.parts {
		col := r.t.Columns[ci]
		s, ok := found[col.Name]
		if !ok || s == r.f.defaultPart {
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

var _ Pushdown = (*fileReader)(nil)

// PushFilters implements Pushdown: the filesystem formats apply none.
func (r *fileReader) PushFilters(fs []catalogs.RowFilter) []bool { return make([]bool, len(fs)) }

// PushColumns implements Pushdown: the csv format converts only these
// columns' fields.
func (r *fileReader) PushColumns(cols []int) {
	r.cols = append([]int{}, cols...)
	r.needed = make([]bool, len(r.t.Columns))
	for _, c := range cols {
		r.needed[c] = true
	}
}

func (r *fileReader) Next(ctx context.Context) (*vector.Batch, error) {
	b, err := r.next(ctx)
	if b == nil || err != nil || r.cols == nil {
		return b, err
	}
	out := &vector.Batch{Cols: make([]*vector.Vec, len(r.cols)), N: b.N, Kinds: b.Kinds}
	for i, c := range r.cols {
		out.Cols[i] = b.Cols[c]
	}
	return out, nil
}

func (r *fileReader) next(ctx context.Context) (*vector.Batch, error) {
	if !r.f.json && csvByteOptions(r.f) {
		return r.nextCSV(ctx)
	}
	ts := r.t.Types()
	out := vector.NewBatch(ts, vector.BatchSize)
	data := make([]any, len(r.lay.data))
	row := make([]any, len(ts))
	for out.N < vector.BatchSize {
		if more, err := r.ready(ctx, out.N, r.dec != nil); err != nil {
			return nil, err
		} else if !more {
			break
		}
		ok, err := r.dec.next(data)
		if err != nil {
			return nil, err
		}
		if !ok {
			r.dec.close()
			r.dec = nil
			continue
		}
		for j, ci := range r.lay.data {
			row[ci] = data[j]
		}
		for j, ci := range r.lay.parts {
			row[ci] = r.pvals[j]
		}
		out.AppendRow(types.Insert, row)
	}
	if out.N == 0 {
		return nil, nil
	}
	return out, nil
}

// ready checks ctx and, when no file is open (open is false), opens the
// next one. It returns false when there is none to read now.
func (r *fileReader) ready(ctx context.Context, batched int, open bool) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if open {
		return true, nil
	}
	return r.openNext(ctx, batched)
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
	pv, err := r.partitionValues(name)
	if err != nil {
		return false, err
	}
	file, err := os.Open(name)
	if err != nil {
		return false, err
	}
	r.pvals = pv
	switch {
	case r.f.json:
		r.dec = newJSONDecoder(file, name, r.f, r.t, r.lay)
	case csvByteOptions(r.f):
		var needed []bool
		if r.needed != nil {
			needed = make([]bool, len(r.lay.data))
			for j, ci := range r.lay.data {
				needed[j] = r.needed[ci]
			}
		}
		r.csv = newCSVBatchDecoder(file, name, r.f, r.dataTs, needed)
	default:
		r.dec = newCSVDecoder(file, name, r.f, r.dataTs)
	}
	return true, nil
}

// nextCSV fills a batch straight from the CSV files: the decoder appends
// to the data columns, the partition values are repeated per row, and the
// columns the query does not read are zero.
func (r *fileReader) nextCSV(ctx context.Context) (*vector.Batch, error) {
	ts := r.t.Types()
	out := &vector.Batch{Cols: make([]*vector.Vec, len(ts))}
	for i, t := range ts {
		if r.needed == nil || r.needed[i] {
			out.Cols[i] = vector.New(t, vector.BatchSize)
		}
	}
	dataCols := make([]*vector.Vec, len(r.lay.data))
	for j, ci := range r.lay.data {
		dataCols[j] = out.Cols[ci]
	}
	for out.N < vector.BatchSize {
		if more, err := r.ready(ctx, out.N, r.csv != nil); err != nil {
			return nil, err
		} else if !more {
			break
		}
		n, eof, err := r.csv.fill(dataCols, vector.BatchSize-out.N)
		if err != nil {
			return nil, err
		}
		for j, ci := range r.lay.parts {
			if v := out.Cols[ci]; v != nil {
				for range n {
					v.Append(r.pvals[j])
				}
			}
		}
		out.N += n
		if eof {
			r.csv.close()
			r.csv = nil
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
	files, err := dataFiles(r.f.root)
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
	var err error
	if r.dec != nil {
		err = r.dec.close()
		r.dec = nil
	}
	if r.csv != nil {
		err = r.csv.close()
		r.csv = nil
	}
	return err
}

// rowEncoder writes rows of the data columns to one file.
type rowEncoder interface {
	write(row []any) error
	flush() error
}

// partFile is one in-progress part file of a writer.
type partFile struct {
	tmp   *os.File
	enc   rowEncoder
	dir   string // partition directory relative to the root, "" for none
	final string
}

type fileWriter struct {
	t         *Table
	f         *fileFormat
	lay       layout
	overwrite bool
	static    map[string]string
	id        string
	files     map[string]*partFile
	order     []string
}

func openFileWriter(t *Table, spec WriteSpec) (Writer, error) {
	f, err := newFileFormat(t)
	if err != nil {
		return nil, err
	}
	if spec.Overwrite && spec.Streaming {
		return nil, &Error{Exception: "IllegalStateException", Msg: "Streaming mode not support overwrite."}
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	id := hex.EncodeToString(b[:])
	id = id[:8] + "-" + id[8:12] + "-" + id[12:16] + "-" + id[16:20] + "-" + id[20:]
	return &fileWriter{t: t, f: f, lay: layoutOf(t), overwrite: spec.Overwrite, static: spec.StaticPartition,
		id: id, files: map[string]*partFile{}}, nil
}

// partitionDir returns the k=v/... directory of a row.
func (w *fileWriter) partitionDir(row []any) string {
	if len(w.lay.parts) == 0 {
		return ""
	}
	segs := make([]string, len(w.lay.parts))
	for i, ci := range w.lay.parts {
		c := w.t.Columns[ci]
		v := w.f.defaultPart
		if row[ci] != nil {
			if s := formatCSVField(row[ci], c.Type); s != "" {
				v = s
			}
		}
		segs[i] = escapePartition(c.Name) + "=" + escapePartition(v)
	}
	return filepath.Join(segs...)
}

func (w *fileWriter) file(dir string) (*partFile, error) {
	if pf, ok := w.files[dir]; ok {
		return pf, nil
	}
	if err := os.MkdirAll(w.f.root, 0o755); err != nil {
		return nil, err
	}
	name := fmt.Sprintf("part-%s-0-%d", w.id, len(w.order))
	tmp, err := os.CreateTemp(w.f.root, "."+name+".*.inprogress")
	if err != nil {
		return nil, err
	}
	pf := &partFile{tmp: tmp, dir: dir, final: filepath.Join(w.f.root, dir, name)}
	ts := w.t.Types()
	dataTs := make([]*types.Type, len(w.lay.data))
	names := make([]string, len(w.lay.data))
	for j, ci := range w.lay.data {
		dataTs[j] = ts[ci]
		names[j] = w.t.Columns[ci].Name
	}
	if w.f.json {
		pf.enc = newJSONEncoder(tmp, names, dataTs)
	} else {
		pf.enc = newCSVEncoder(tmp, w.f, dataTs)
	}
	w.files[dir] = pf
	w.order = append(w.order, dir)
	return pf, nil
}

func (w *fileWriter) Write(ctx context.Context, b *vector.Batch) error {
	data := make([]any, len(w.lay.data))
	for i := range b.N {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if k := b.Kind(i); k == types.UpdateBefore || k == types.Delete {
			return &Error{Exception: "TableException", Msg: fmt.Sprintf(
				"Table sink '%s' doesn't support consuming update and delete changes which is produced by node %s", w.t.Name, "GroupAggregate")}
		}
		row := b.Row(i)
		for j, ci := range w.lay.data {
			data[j] = row[ci]
		}
		pf, err := w.file(w.partitionDir(row))
		if err != nil {
			return err
		}
		if err := pf.enc.write(data); err != nil {
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
		if err := errors.Join(pf.enc.flush(), pf.tmp.Sync()); err != nil {
			return w.abortWith(err)
		}
	}
	var old []string
	if w.overwrite {
		dirs := map[string]bool{}
		for _, dir := range w.order {
			dirs[dir] = true
		}
		if len(w.lay.parts) == 0 {
			dirs[""] = true
		} else if len(w.static) == len(w.lay.parts) {
			row := make([]any, len(w.t.Columns))
			for _, ci := range w.lay.parts {
				row[ci] = w.static[w.t.Columns[ci].Name]
			}
			dirs[w.partitionDir(row)] = true
		}
		for dir := range dirs {
			files, err := dataFiles(filepath.Join(w.f.root, dir))
			if err != nil {
				return w.abortWith(err)
			}
			old = append(old, files...)
		}
	}
	for _, dir := range w.order {
		pf := w.files[dir]
		if err := pf.tmp.Close(); err != nil {
			return w.abortWith(err)
		}
		if err := os.MkdirAll(filepath.Dir(pf.final), 0o755); err != nil {
			return w.abortWith(err)
		}
		if err := os.Rename(pf.tmp.Name(), pf.final); err != nil {
			return w.abortWith(err)
		}
		delete(w.files, dir)
	}
	w.order = nil
	for _, f := range old {
		if err := os.Remove(f); err != nil {
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
			pf.tmp.Close()
			err = errors.Join(err, os.Remove(pf.tmp.Name()))
		}
	}
	w.files, w.order = map[string]*partFile{}, nil
	return err
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
