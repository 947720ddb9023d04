package hive

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

	hms "github.com/beltran/gohive/hive_metastore"

	"eddy/catalogs"
	"eddy/engine/connectors"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// Sink options of Hive tables that this package honours (Flink's
// FileSystemConnectorOptions, set in TBLPROPERTIES).
const (
	optCommitPolicy   = "sink.partition-commit.policy.kind"
	optSuccessFile    = "sink.partition-commit.success-file.name"
	defaultPartition  = "__HIVE_DEFAULT_PARTITION__"
	defaultSuccessTag = "_SUCCESS"
)

var _ connectors.CatalogConnector = (*Catalog)(nil)

// Connector supplies the connector of the catalog's Hive tables: reading
// and writing their text or Parquet files. Generic tables keep their own
// connector.
func (c *Catalog) Connector(t *connectors.Table) (*connectors.Factory, bool) {
	if !isHiveTable(t.Options) {
		return nil, false
	}
	return &connectors.Factory{
		Identifier: identifier,
		Validate:   func(*connectors.Table, bool) error { return nil },
		Source: func(ctx context.Context, _ *connectors.Env, t *connectors.Table) (connectors.Reader, error) {
			return c.openReader(ctx, t)
		},
		Sink: func(ctx context.Context, _ *connectors.Env, t *connectors.Table, spec connectors.WriteSpec) (connectors.Writer, error) {
			return c.openWriter(ctx, t, spec)
		},
	}, true
}

// localPath returns the local directory of a metastore location (file:
// URIs and plain paths); other file systems are an error.
func localPath(loc string) (string, error) {
	if strings.HasPrefix(loc, "/") {
		return loc, nil
	}
	u, err := url.Parse(loc)
	if err != nil || u.Scheme != "file" {
		return "", &connectors.Error{Exception: "TableException", Msg: fmt.Sprintf(
			"Hive table location '%s' is not on the local file system: eddy reads and writes Hive tables under file: locations only", loc)}
	}
	return u.Path, nil
}

// fileFormat is a storage format of Hive tables that eddy reads and
// writes.
type fileFormat int

const (
	formatText    fileFormat = iota // TextInputFormat with LazySimpleSerDe
	formatParquet                   // MapredParquetInputFormat with ParquetHiveSerDe
)

// formatOf returns the file format of a table's or partition's storage
// descriptor, refusing the formats eddy does not read or write.
func formatOf(sd *hms.StorageDescriptor, name catalogs.Identifier) (fileFormat, error) {
	if sd == nil {
		return 0, fmt.Errorf("table %s has no storage descriptor", name)
	}
	lib := sd.SerdeInfo.GetSerializationLib()
	switch {
	case sd.InputFormat == inputText && (lib == serdeLazySimple || lib == "org.apache.hadoop.hive.serde2.MetadataTypedColumnsetSerDe"):
		return formatText, nil
	case sd.InputFormat == inputParquet && lib == serdeParquet:
		return formatParquet, nil
	}
	return 0, &connectors.Error{Exception: "TableException", Msg: fmt.Sprintf(
		"Hive table %s is stored as %s with SerDe %s: eddy reads and writes only text files (STORED AS TEXTFILE, LazySimpleSerDe) and Parquet files (STORED AS PARQUET)",
		name, sd.InputFormat, lib)}
}

// parquetCodec returns the parquet format's codec with Flink's defaults,
// which is what Flink's Hive connector reads Parquet tables with; the
// table's TBLPROPERTIES may set the format's own options
// ('parquet.compression').
func parquetCodec(options map[string]string) (connectors.Codec, error) {
	f, ok := connectors.NewRegistry().Format("parquet")
	if !ok {
		return nil, errors.New("the parquet format is not registered")
	}
	opts := map[string]string{}
	for _, k := range f.Options {
		if v, ok := options[k]; ok {
			opts[k] = v
		}
	}
	return f.Configure(opts)
}

// dataColumns returns the columns stored in a Hive table's files: all but
// the partition columns, which come last.
func dataColumns(t *connectors.Table, nData int) []connectors.Column {
	return t.Columns[:nData]
}

func objectPath(t *connectors.Table) catalogs.ObjectPath {
	return catalogs.ObjectPath{Database: t.Name.Database, Object: t.Name.Object}
}

// hivePartition is one directory of rows and the values of its partition
// columns.
type hivePartition struct {
	dir    string
	values []string
	sd     *hms.StorageDescriptor
}

func (c *Catalog) partitions(ctx context.Context, ht *hms.Table) ([]hivePartition, error) {
	if len(ht.PartitionKeys) == 0 {
		dir, err := localPath(ht.Sd.Location)
		if err != nil {
			return nil, err
		}
		return []hivePartition{{dir: dir, sd: ht.Sd}}, nil
	}
	var parts []*hms.Partition
	err := c.cl.call(ctx, func(ctx context.Context, h *hms.ThriftHiveMetastoreClient) (err error) {
		parts, err = h.GetPartitions(ctx, ht.DbName, ht.TableName, -1)
		return err
	})
	if err != nil {
		return nil, c.fail(err, "Failed to list partitions of table %s.%s", ht.DbName, ht.TableName)
	}
	out := make([]hivePartition, 0, len(parts))
	for _, p := range parts {
		dir, err := localPath(p.Sd.Location)
		if err != nil {
			return nil, err
		}
		out = append(out, hivePartition{dir: dir, values: p.Values, sd: p.Sd})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].dir < out[j].dir })
	return out, nil
}

// dataFiles lists the files Hive reads in dir: not hidden (. or _).
func dataFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") {
			continue
		}
		out = append(out, filepath.Join(dir, n))
	}
	return out, nil
}

// openReader reads every file of every partition of a Hive table.
func (c *Catalog) openReader(ctx context.Context, t *connectors.Table) (connectors.Reader, error) {
	ht, err := c.hiveTable(ctx, objectPath(t))
	if err != nil {
		return nil, err
	}
	if _, err := formatOf(ht.Sd, t.Name); err != nil {
		return nil, err
	}
	parts, err := c.partitions(ctx, ht)
	if err != nil {
		return nil, err
	}
	colTypes := t.Types()
	nData := len(colTypes) - len(ht.PartitionKeys)
	r := &textReader{types: colTypes, nData: nData, cols: dataColumns(t, nData)}
	for _, p := range parts {
		files, err := dataFiles(p.dir)
		if err != nil {
			return nil, err
		}
		format, err := formatOf(p.sd, t.Name)
		if err != nil {
			return nil, err
		}
		if format == formatParquet && r.parquet == nil {
			if r.parquet, err = parquetCodec(ht.Parameters); err != nil {
				return nil, err
			}
		}
		sd, err := newTextSerDe(p.sd.SerdeInfo.Parameters)
		if err != nil {
			return nil, err
		}
		pvals := make([]any, len(p.values))
		for i, v := range p.values {
			if v != defaultPartition {
				pvals[i] = sd.decode(v, colTypes[nData+i], 1)
			}
		}
		for _, f := range files {
			r.files = append(r.files, textFile{path: f, format: format, serde: sd, partVals: pvals})
		}
	}
	return r, nil
}

type textFile struct {
	path     string
	format   fileFormat
	serde    *textSerDe // the text SerDe (and the partition values' encoding)
	partVals []any
}

// textReader reads the files of a Hive table one after the other: lines
// of text through the table's SerDe, or Parquet files by column name.
type textReader struct {
	types   []*types.Type
	nData   int
	cols    []connectors.Column // the columns in the files
	parquet connectors.Codec    // set when a file is Parquet
	files   []textFile
	cur     *os.File
	sc      *bufio.Reader
	dec     connectors.RowDecoder
	file    textFile
}

func (r *textReader) Next(ctx context.Context) (*vector.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b := vector.NewBatch(r.types, vector.BatchSize)
	row := make([]any, len(r.types))
	for b.N < vector.BatchSize {
		if r.sc == nil {
			if len(r.files) == 0 {
				break
			}
			r.file, r.files = r.files[0], r.files[1:]
			f, err := os.Open(r.file.path)
			if err != nil {
				return nil, err
			}
			r.cur, r.sc = f, bufio.NewReaderSize(f, 1<<16)
			if r.file.format == formatParquet {
				r.dec = r.parquet.Decoder(f, r.file.path, r.cols)
			}
		}
		if r.dec != nil {
			_, ok, err := r.dec.Next(row[:r.nData])
			if err != nil {
				return nil, err
			}
			if !ok {
				r.closeFile()
				continue
			}
			copy(row[r.nData:], r.file.partVals)
			b.AppendRow(types.Insert, row)
			continue
		}
		line, err := r.sc.ReadString('\n')
		if err == io.EOF && line == "" {
			r.closeFile()
			continue
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		r.file.serde.decodeLine(line, r.types[:r.nData], row)
		copy(row[r.nData:], r.file.partVals)
		b.AppendRow(types.Insert, row)
	}
	if b.N == 0 {
		return nil, nil // the end
	}
	return b, nil
}

func (r *textReader) closeFile() {
	if r.cur != nil {
		r.cur.Close()
	}
	r.cur, r.sc, r.dec = nil, nil, nil
}

func (r *textReader) Close() error {
	r.closeFile()
	return nil
}

// openWriter writes rows into new files of the table's (or its
// partitions') directories, made visible at Commit.
func (c *Catalog) openWriter(ctx context.Context, t *connectors.Table, spec connectors.WriteSpec) (connectors.Writer, error) {
	if spec.Overwrite && spec.Streaming {
		return nil, &connectors.Error{Exception: "IllegalStateException", Msg: "Streaming mode not support overwrite."}
	}
	ht, err := c.hiveTable(ctx, objectPath(t))
	if err != nil {
		return nil, err
	}
	format, err := formatOf(ht.Sd, t.Name)
	if err != nil {
		return nil, err
	}
	var pq connectors.Codec
	if format == formatParquet {
		if pq, err = parquetCodec(ht.Parameters); err != nil {
			return nil, err
		}
	}
	root, err := localPath(ht.Sd.Location)
	if err != nil {
		return nil, err
	}
	sd, err := newTextSerDe(ht.Sd.SerdeInfo.Parameters)
	if err != nil {
		return nil, err
	}
	var id [8]byte
	if _, err := rand.Read(id[:]); err != nil {
		return nil, err
	}
	keys := make([]string, len(ht.PartitionKeys))
	for i, k := range ht.PartitionKeys {
		keys[i] = k.Name
	}
	policy := strings.ToLower(t.Options[optCommitPolicy])
	success := t.Options[optSuccessFile]
	if success == "" {
		success = defaultSuccessTag
	}
	return &textWriter{c: c, ht: ht, root: root, serde: sd, parquet: pq, cols: dataColumns(t, len(t.Columns)-len(keys)),
		types: t.Types(), keys: keys,
		id: hex.EncodeToString(id[:]), overwrite: spec.Overwrite,
		successFile: strings.Contains(policy, "success-file"), successName: success,
		files: map[string]*pendingFile{}}, nil
}

// pendingFile is the file one write is filling in one partition
// directory: hidden (Hive and eddy skip names starting with '.') until
// Commit renames it.
type pendingFile struct {
	dir    string // partition directory, "" for none
	values []string
	tmp    string // hidden path being written
	final  string
	f      *os.File
	w      *bufio.Writer
	enc    connectors.RowEncoder // the Parquet encoder, nil for text
}

// textWriter writes the rows of one statement into new files of a Hive
// table: lines of text through the table's SerDe, or Parquet files.
type textWriter struct {
	c           *Catalog
	ht          *hms.Table
	root        string
	serde       *textSerDe
	parquet     connectors.Codec    // set for a Parquet table
	cols        []connectors.Column // the columns in the files
	types       []*types.Type
	keys        []string
	id          string
	overwrite   bool
	successFile bool
	successName string
	files       map[string]*pendingFile
	order       []string
	made        int // files made so far, for unique names across commits
	line        bytes.Buffer
}

func (w *textWriter) file(dir string, vals []string) (*pendingFile, error) {
	if pf, ok := w.files[dir]; ok {
		return pf, nil
	}
	full := filepath.Join(w.root, filepath.FromSlash(dir))
	if err := os.MkdirAll(full, 0o755); err != nil {
		return nil, err
	}
	name := fmt.Sprintf("part-%s-%d", w.id, w.made)
	w.made++
	pf := &pendingFile{dir: full, values: vals, tmp: filepath.Join(full, "."+name+".inprogress"), final: filepath.Join(full, name)}
	f, err := os.OpenFile(pf.tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	pf.f, pf.w = f, bufio.NewWriterSize(f, 1<<16)
	if w.parquet != nil {
		pf.enc = w.parquet.Encoder(pf.w, w.cols)
	}
	w.files[dir] = pf
	w.order = append(w.order, dir)
	return pf, nil
}

func (w *textWriter) Write(ctx context.Context, b *vector.Batch) error {
	nData := len(w.types) - len(w.keys)
	for i := range b.N {
		if k := b.Kind(i); k == types.UpdateBefore || k == types.Delete {
			return &connectors.Error{Exception: "TableException", Msg: fmt.Sprintf(
				"Table sink '%s.%s' doesn't support consuming update and delete changes", w.ht.DbName, w.ht.TableName)}
		}
		row := b.Row(i)
		vals := make([]string, len(w.keys))
		spec := catalogs.PartitionSpec{}
		for j, k := range w.keys {
			v := row[nData+j]
			s := defaultPartition
			if v != nil {
				w.line.Reset()
				w.serde.encode(&w.line, v, w.types[nData+j], 1)
				s = w.line.String()
			}
			vals[j], spec[k] = s, s
		}
		dir := ""
		if len(w.keys) > 0 {
			dir = partitionName(w.keys, spec)
		}
		pf, err := w.file(dir, vals)
		if err != nil {
			return err
		}
		if pf.enc != nil {
			if err := pf.enc.Write(types.Insert, row[:nData]); err != nil {
				return err
			}
		} else {
			w.line.Reset()
			w.serde.encodeRow(&w.line, row[:nData], w.types[:nData])
			if _, err := pf.w.Write(w.line.Bytes()); err != nil {
				return err
			}
		}
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
	return nil
}

// Commit renames each partition's file into place (after removing the
// old files for INSERT OVERWRITE), adds new partitions to the metastore
// and writes the success file when the table's commit policy asks for
// one.
func (w *textWriter) Commit(ctx context.Context) error {
	if w.overwrite && len(w.keys) == 0 && len(w.order) == 0 {
		// INSERT OVERWRITE of nothing empties an unpartitioned table.
		if err := removeData(w.root); err != nil {
			return err
		}
	}
	for _, dir := range w.order {
		pf := w.files[dir]
		if pf.enc != nil {
			if err := pf.enc.Flush(); err != nil {
				return err
			}
		}
		if err := pf.w.Flush(); err != nil {
			return err
		}
		if err := pf.f.Close(); err != nil {
			return err
		}
		pf.f = nil
		if w.overwrite {
			if err := removeData(pf.dir); err != nil {
				return err
			}
		}
		if err := os.Rename(pf.tmp, pf.final); err != nil {
			return err
		}
		if len(w.keys) > 0 {
			err := w.c.addPartition(ctx, w.ht, w.keys, pf.values)
			if err != nil && !isAlreadyExists(err) {
				return err
			}
		}
		if w.successFile {
			if err := os.WriteFile(filepath.Join(pf.dir, w.successName), nil, 0o644); err != nil {
				return err
			}
		}
	}
	w.files, w.order = map[string]*pendingFile{}, nil
	return nil
}

// Abort removes the files not yet committed.
func (w *textWriter) Abort() error {
	var errs []error
	for _, dir := range w.order {
		pf := w.files[dir]
		if pf.f != nil {
			errs = append(errs, pf.f.Close())
		}
		if err := os.Remove(pf.tmp); err != nil && !os.IsNotExist(err) {
			errs = append(errs, err)
		}
	}
	w.files, w.order = map[string]*pendingFile{}, nil
	return errors.Join(errs...)
}

// removeData removes the data files of a directory (INSERT OVERWRITE).
func removeData(dir string) error {
	files, err := dataFiles(dir)
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	return nil
}
