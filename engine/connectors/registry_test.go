package connectors_test

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/engine/connectors"
	"eddy/engine/types"
)

func table(options map[string]string, cols ...string) *connectors.Table {
	t := &connectors.Table{Name: catalogs.NewIdentifier("c", "d", "t"), Options: options}
	for _, c := range cols {
		t.Columns = append(t.Columns, connectors.Column{Name: c, Type: types.NewString()})
	}
	return t
}

func TestBuiltinIdentifiers(t *testing.T) {
	reg := connectors.NewRegistry()
	if got, want := reg.Identifiers(), []string{"blackhole", "datagen", "filesystem", "print"}; !reflect.DeepEqual(got, want) {
		t.Errorf("connectors %v, want %v", got, want)
	}
	if got, want := reg.FormatIdentifiers(), []string{"avro", "avro-confluent", "canal-json", "csv",
		"debezium-avro-confluent", "debezium-json", "json", "maxwell-json", "orc", "parquet", "raw"}; !reflect.DeepEqual(got, want) {
		t.Errorf("formats %v, want %v", got, want)
	}
}

func TestDeclaredAbilities(t *testing.T) {
	reg := connectors.NewRegistry()
	mem := memory.New("c", "d")
	for _, c := range []struct {
		name string
		t    *connectors.Table
		want connectors.Abilities
	}{
		{"datagen without end", table(map[string]string{"connector": "datagen"}, "f0"),
			connectors.Abilities{Source: true, Projection: true}},
		{"datagen with rows", table(map[string]string{"connector": "datagen", "number-of-rows": "5"}, "f0"),
			connectors.Abilities{Source: true, Bounded: true, Projection: true}},
		{"datagen sequence", table(map[string]string{"connector": "datagen", "fields.f0.kind": "sequence"}, "f0"),
			connectors.Abilities{Source: true, Projection: true}},
		{"print", table(map[string]string{"connector": "print"}, "f0"),
			connectors.Abilities{Sink: true, Bounded: true, Accepts: connectors.FullChangelog}},
		{"blackhole", table(map[string]string{"connector": "blackhole"}, "f0"),
			connectors.Abilities{Sink: true, Bounded: true, Accepts: connectors.FullChangelog}},
		{"managed in memory", &connectors.Table{Catalog: mem, Options: map[string]string{}},
			connectors.Abilities{Source: true, Sink: true, Bounded: true}},
		{"unknown connector", table(map[string]string{"connector": "kafka"}),
			connectors.Abilities{Source: true, Sink: true, Bounded: true}},
	} {
		if got := reg.Abilities(c.t); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	fs := reg.Abilities(table(map[string]string{"connector": "filesystem", "path": "/x", "format": "csv"}))
	if !fs.Source || !fs.Sink || !fs.Bounded || !fs.Projection || fs.Filters != 0 || fs.Accepts != connectors.InsertOnly {
		t.Errorf("filesystem: %+v", fs)
	}
	var keys []string
	for _, m := range fs.ReadableMetadata {
		keys = append(keys, m.Key+" "+m.Type.String())
	}
	if got, want := strings.Join(keys, ", "), "file.path STRING NOT NULL, file.name STRING NOT NULL, file.size BIGINT NOT NULL, file.modification-time TIMESTAMP_LTZ(3) NOT NULL"; got != want {
		t.Errorf("filesystem metadata: %s, want %s", got, want)
	}
	if fs.ReadsMetadata("file.size") == nil || fs.ReadsMetadata("offset") != nil {
		t.Error("ReadsMetadata answers from the declared keys")
	}
	monitored := reg.Abilities(table(map[string]string{"connector": "filesystem", "path": "/x", "format": "csv",
		"source.monitor-interval": "1 s"}))
	if monitored.Bounded {
		t.Error("a monitored directory is unbounded")
	}
}

// fixedCatalog supplies one factory for every table of a catalog.
type fixedCatalog struct {
	*memory.Catalog
	f *connectors.Factory
}

func (c fixedCatalog) Connector(*connectors.Table) (*connectors.Factory, bool) { return c.f, true }

func TestCatalogConnectorResolution(t *testing.T) {
	reg := connectors.NewRegistry()
	own := &connectors.Factory{Identifier: "own", Sink: func(context.Context, *connectors.Env, *connectors.Table, connectors.WriteSpec) (connectors.Writer, error) {
		return nil, nil
	}}
	cat := fixedCatalog{Catalog: memory.New("c", "d"), f: own}
	tbl := &connectors.Table{Catalog: cat, Options: map[string]string{"connector": "datagen"}}
	if f, err := reg.Factory(tbl); err != nil || f != own {
		t.Errorf("a catalog's factory comes first: %v, %v", f, err)
	}
	if reg.Managed(tbl) {
		t.Error("a table served by its catalog's factory is not managed storage")
	}
	if a := reg.Abilities(tbl); a.Source || !a.Sink {
		t.Errorf("abilities of the catalog's factory: %+v", a)
	}
	// Temporary tables belong to no catalog.
	tmp := &connectors.Table{Catalog: cat, Temporary: true, Options: map[string]string{}}
	if !reg.Managed(tmp) {
		t.Error("a temporary table without a connector is managed")
	}
	plain := &connectors.Table{Catalog: memory.New("c", "d"), Options: map[string]string{}}
	if !reg.Managed(plain) {
		t.Error("a table without a connector of a plain catalog is managed")
	}
}

// linesFormat reads each line as the first column; registering it is all
// it takes for the filesystem connector to read 'format' = 'lines'.
func linesFormat() *connectors.Format {
	return &connectors.Format{
		Identifier: "lines",
		Options:    []string{"lines.upper"},
		Configure: func(o map[string]string) (connectors.Codec, error) {
			return linesCodec{upper: o["lines.upper"] == "true"}, nil
		},
	}
}

type linesCodec struct{ upper bool }

func (c linesCodec) Decoder(r io.Reader, _ string, _ []connectors.Column) connectors.RowDecoder {
	return &linesDecoder{sc: bufio.NewScanner(r), upper: c.upper}
}

func (linesCodec) Encoder(io.Writer, []connectors.Column) connectors.RowEncoder { return nil }

type linesDecoder struct {
	sc    *bufio.Scanner
	upper bool
}

func (d *linesDecoder) Next(row []any) (types.RowKind, bool, error) {
	if !d.sc.Scan() {
		return types.Insert, false, d.sc.Err()
	}
	row[0] = d.sc.Text()
	if d.upper {
		row[0] = strings.ToUpper(d.sc.Text())
	}
	return types.Insert, true, nil
}

func TestRegisteredFormat(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "p=b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p=b", "part-0"), []byte("x\ny\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := connectors.NewRegistry()
	tbl := table(map[string]string{"connector": "filesystem", "path": dir, "format": "lines", "lines.upper": "true"}, "line", "p")
	tbl.PartitionKeys = []string{"p"}
	if err := reg.Validate(tbl, false); err == nil ||
		!strings.Contains(err.Error(), "Could not find any factory for identifier 'lines' that implements 'org.apache.flink.table.factories.DeserializationFormatFactory' in the classpath.\n\nAvailable factory identifiers are:\n\navro\navro-confluent\ncanal-json\ncsv\n") {
		t.Fatalf("unregistered format: %v", err)
	}
	reg.RegisterFormat(linesFormat())
	conns := connectors.NewWith(reg)
	r, err := conns.OpenReader(context.Background(), tbl)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var got []string
	for {
		b, err := r.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		for i := range b.N {
			row := b.Row(i)
			got = append(got, row[0].(string)+"/"+row[1].(string))
		}
	}
	if want := []string{"X/b", "Y/b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
}
