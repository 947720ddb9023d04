package conf

import (
	"errors"
	"testing"
	"time"
)

func TestOptionValidate(t *testing.T) {
	r := Options()
	tests := []struct {
		key, value, want string
		wantErr          string
	}{
		{RuntimeMode, "batch", "batch", ""},
		{RuntimeMode, "BATCH", "BATCH", ""},
		{RuntimeMode, "fast", "", "Could not parse value 'fast' for key 'execution.runtime-mode'. Expected one of: [streaming, batch, automatic]"},
		{ResultMode, "tableau", "tableau", ""},
		{MaxColumnWidth, "10", "10", ""},
		{MaxColumnWidth, "ten", "", "Could not parse value 'ten' for key 'table.display.max-column-width'."},
		{Verbose, "TRUE", "true", ""},
		{Verbose, "yes", "", "Could not parse value 'yes' for key 'sql-client.verbose'."},
		{SQLDialect, "unknown", "", "No enum constant org.apache.flink.table.api.SqlDialect.UNKNOWN"},
		{LocalTimeZone, "Asia/Shanghai", "Asia/Shanghai", ""},
		{LocalTimeZone, "UTC", "UTC", ""},
		{"some.unknown.key", "anything", "anything", ""},
	}
	for _, tc := range tests {
		got, err := r.Validate(tc.key, tc.value)
		if tc.wantErr != "" {
			var ve *ValueError
			if !errors.As(err, &ve) || ve.Msg != tc.wantErr {
				t.Errorf("Validate(%q, %q) error = %v, want %q", tc.key, tc.value, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Validate(%q, %q) = %q, %v; want %q", tc.key, tc.value, got, err, tc.want)
		}
	}
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{"10 s": 10 * time.Second, "5min": 5 * time.Minute, "100": 100 * time.Millisecond, "0 ms": 0} {
		got, err := ParseDuration(in)
		if err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseDuration("soon"); err == nil {
		t.Error("ParseDuration(soon) succeeded")
	}
}

func TestLoadZone(t *testing.T) {
	loc, err := LoadZone("GMT+08:00")
	if err != nil {
		t.Fatal(err)
	}
	if _, off := time.Unix(0, 0).In(loc).Zone(); off != 8*3600 {
		t.Fatalf("offset %d", off)
	}
	if _, err := LoadZone("Mars/Olympus"); err == nil {
		t.Fatal("unknown zone accepted")
	}
}
