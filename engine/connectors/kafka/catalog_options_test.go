package kafka

import (
	"context"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"

	"eddy/catalogs"
	"eddy/engine/types"
)

// These tests need no broker: the definition document, the catalog's
// options and the topic options.

func TestDefinitionRoundTrip(t *testing.T) {
	in := &catalogs.CatalogTable{
		Comment: "orders",
		Schema: catalogs.Schema{
			Columns: []catalogs.Column{
				{Name: "id", Kind: catalogs.Physical, Type: types.New(types.BigInt).WithNullable(false), Comment: "key"},
				{Name: "ts", Kind: catalogs.Physical, Type: types.NewTimestamp(3).WithTimeAttr(types.Rowtime)},
				{Name: "total", Kind: catalogs.Computed, Type: types.New(types.Double), Expr: "`price` * 2"},
				{Name: "part", Kind: catalogs.Metadata, Type: types.New(types.Int), MetadataKey: "partition", Virtual: true},
			},
			PrimaryKey: &catalogs.PrimaryKey{Name: "PK_id", Columns: []string{"id"}},
			Watermarks: []catalogs.WatermarkSpec{{RowtimeColumn: "ts", Expr: "`ts` - INTERVAL '5' SECOND"}},
		},
		Distribution: &catalogs.Distribution{Kind: catalogs.DistHash, Keys: []string{"id"}, Buckets: 4},
		Options:      map[string]string{"value.format": "json", "kafka.partitions": "4"},
	}
	b, err := encodeTable(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := decodeTable(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("round trip changed the definition:\n in: %+v\nout: %+v\njson: %s", in, out, b)
	}
	if _, err := decodeTable([]byte(`{"version":2,"columns":[]}`)); err == nil || !strings.Contains(err.Error(), "version 2") {
		t.Errorf("a later version: got %v", err)
	}
}

func TestClusterSpecs(t *testing.T) {
	specs, def, topic, err := clusterSpecs("c", map[string]string{
		"default-database":                           "main",
		"properties.bootstrap.servers":               "a:9092",
		"properties.sasl.mechanism":                  "PLAIN",
		"cluster.audit.properties.bootstrap.servers": "b:9092",
		"tables-topic":                               "_defs",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]string{
		"main":  {"properties.bootstrap.servers": "a:9092", "properties.sasl.mechanism": "PLAIN"},
		"audit": {"properties.bootstrap.servers": "b:9092"},
	}
	if !reflect.DeepEqual(specs, want) || def != "main" || topic != "_defs" {
		t.Errorf("got %v %q %q", specs, def, topic)
	}
	for _, c := range []struct {
		opts map[string]string
		want string
	}{
		{map[string]string{"properties.bootstrap.servers": "a:1", "bogus": "x"}, "Unsupported options found for catalog 'c' of type 'kafka'.\n\nUnsupported options:\n\nbogus"},
		{map[string]string{}, "needs the brokers of its default database 'default'"},
		{map[string]string{"default-database": "x", "cluster.y.properties.bootstrap.servers": "a:1"}, "needs the brokers of its default database 'x'"},
		{map[string]string{"properties.bootstrap.servers": "a:1", "cluster.y.properties.group.id": "g"}, "has no 'properties.bootstrap.servers' for its database 'y'"},
		{map[string]string{"properties.bootstrap.servers": "a:1", "tables-topic": " "}, "Option 'tables-topic' of catalog 'c' must name a topic."},
	} {
		if _, _, _, err := clusterSpecs("c", c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.opts, err, c.want)
		}
	}
}

func TestReadTopicSettings(t *testing.T) {
	ts, err := readTopicSettings(map[string]string{
		"kafka.partitions": "6", "kafka.replication-factor": "1", "kafka.retention.time": "2 h",
		"kafka.retention.size": "1 kb", "kafka.cleanup-policy": "compact", "value.format": "json",
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"retention.ms": "7200000", "retention.bytes": "1024", "cleanup.policy": "compact"}
	if ts.partitions != 6 || ts.replication != 1 || !reflect.DeepEqual(ts.config, want) {
		t.Errorf("got %+v", ts)
	}
	if ts, _ := readTopicSettings(map[string]string{}, 8); ts.partitions != 8 || ts.replication != -1 {
		t.Errorf("DISTRIBUTED INTO 8 BUCKETS: got %+v", ts)
	}
	if ts, _ := readTopicSettings(map[string]string{"kafka.retention.time": "-1"}, 0); ts.config["retention.ms"] != "-1" {
		t.Errorf("retention -1: got %+v", ts)
	}
	for _, bad := range []map[string]string{
		{"kafka.partitions": "0"}, {"kafka.replication-factor": "x"}, {"kafka.retention.time": "soon"},
		{"kafka.retention.size": "big"}, {"kafka.cleanup-policy": "never"}, {"kafka.segment.bytes": "1"},
	} {
		if _, err := readTopicSettings(bad, 0); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

// TestOpenSilentCluster: a server that accepts connections and never
// answers makes opening the catalog fail by the Manager's open timeout,
// with an error naming the bootstrap servers. No broker is needed.
func TestOpenSilentCluster(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	mgr := catalogs.NewManager(map[string]catalogs.Factory{CatalogType: NewCatalogFactory()}, nil,
		catalogs.WithOpenTimeout(2*time.Second))
	defer mgr.Close()
	desc := catalogs.CatalogDescriptor{Name: "silent", Options: map[string]string{
		catalogs.OptionType: CatalogType, "properties.bootstrap.servers": ln.Addr().String()}}
	err = mgr.CreateCatalog(context.Background(), desc, false)
	if err == nil || !strings.Contains(err.Error(), "Could not reach the Kafka brokers at '"+ln.Addr().String()+"'") {
		t.Fatalf("got %v, want an error naming %s", err, ln.Addr())
	}
}
