package connectors

import (
	"fmt"
	"testing"
	"time"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// avroScanCols are the columns the Avro fast-path tests read: every type
// it reads, nullable and not.
func avroScanCols() []Column {
	return []Column{
		{Name: "id", Type: types.New(types.BigInt).WithNullable(false)}, {Name: "n", Type: types.New(types.Int)},
		{Name: "name", Type: types.NewString()}, {Name: "score", Type: types.New(types.Double)},
		{Name: "ok", Type: types.New(types.Boolean)}, {Name: "ts", Type: types.NewTimestamp(3)},
		{Name: "f", Type: types.New(types.Float)}, {Name: "ts0", Type: types.NewTimestamp(0)},
	}
}

// checkAvroFast: when the fast path reads msg, the general way reads the
// same row.
func checkAvroFast(t *testing.T, f *avroOptions, msg []byte) bool {
	t.Helper()
	cols := avroScanCols()
	fast := newAvroFields(cols, f.legacy)
	vecs := make([]*vector.Vec, len(cols))
	for i, c := range cols {
		vecs[i] = vector.New(c.Type, 1)
	}
	if !fast.appendRecord(msg, vecs) {
		for _, v := range vecs {
			if v.Len != 0 {
				t.Fatalf("%x: declined but appended", msg)
			}
		}
		return false
	}
	rows, _, err := f.DecodeMessage(msg, cols)
	if err != nil {
		t.Errorf("%x: the fast path read it where the general way fails: %v", msg, err)
		return true
	}
	got := make([]any, len(cols))
	for i, v := range vecs {
		got[i] = v.Get(0)
	}
	if g, w := fmt.Sprintf("%#v", got), fmt.Sprintf("%#v", rows[0]); g != w {
		t.Errorf("%x:\nfast:    %s\ngeneral: %s", msg, g, w)
	}
	return true
}

// avroSeeds are records the avro format writes.
func avroSeeds(t testing.TB, f *avroOptions) [][]byte {
	ts := time.Date(2024, 2, 29, 23, 59, 59, 123000000, time.UTC)
	var out [][]byte
	for _, row := range [][]any{
		{int64(1), int32(2), "ann", 1.5, true, ts, float32(0.1), ts.Truncate(time.Second)},
		{int64(-9223372036854775808), nil, nil, nil, nil, nil, nil, nil},
		{int64(7), int32(-2147483648), "été", -0.0, false, time.Unix(0, 0).UTC(), float32(3), time.Unix(-86400, 0).UTC()},
	} {
		msg, err := f.EncodeMessage(types.Insert, row, avroScanCols())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, msg)
	}
	return out
}

// TestAvroFastPath: the fast path reads what the avro format writes, as
// the general way reads it, and declines a truncated record.
func TestAvroFastPath(t *testing.T) {
	for _, legacy := range []string{"true", "false"} {
		f, err := newAvroOptions(map[string]string{"avro.timestamp_mapping.legacy": legacy})
		if err != nil {
			t.Fatal(err)
		}
		for _, msg := range avroSeeds(t, f) {
			if !checkAvroFast(t, f, msg) {
				t.Errorf("%x: declined a record the avro format wrote", msg)
			}
			if checkAvroFast(t, f, msg[:len(msg)-1]) {
				t.Errorf("%x: read a truncated record", msg)
			}
		}
	}
}

// FuzzAvroFastPath: on any bytes, the fast path reads what the general way
// reads, or declines.
func FuzzAvroFastPath(f *testing.F) {
	opts, err := newAvroOptions(map[string]string{})
	if err != nil {
		f.Fatal(err)
	}
	for _, msg := range avroSeeds(f, opts) {
		f.Add(msg)
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		checkAvroFast(t, opts, msg)
	})
}
