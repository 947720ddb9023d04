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
		{SpillMemory, "64 MB", "64 MB", ""},
		{SpillMemory, "lots", "", "Could not parse value 'lots' for key 'eddy.exec.memory-budget'."},
		{StateTTL, "1 h", "1 h", ""},
		{StateTTL, "an hour", "", "Could not parse value 'an hour' for key 'table.exec.state.ttl'."},
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
	for in, want := range map[string]time.Duration{"10 s": 10 * time.Second, "5min": 5 * time.Minute, "100": 100 * time.Millisecond, "0 ms": 0,
		"3 MS": 3 * time.Millisecond, "2 us": 2 * time.Microsecond, "7ns": 7, "1 d": 24 * time.Hour, "250 milliseconds": 250 * time.Millisecond} {
		got, err := ParseDuration(in)
		if err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"soon", "", "s", "1.5 s", "-1 s", "5 fortnights"} {
		if _, err := ParseDuration(bad); err == nil {
			t.Errorf("ParseDuration(%q) succeeded", bad)
		}
	}
}

func TestParseMemorySize(t *testing.T) {
	for in, want := range map[string]int64{"256mb": 256 << 20, "64 MB": 64 << 20, "1g": 1 << 30, "512": 512,
		"16kb": 16 << 10, "2t": 2 << 40, "100b": 100} {
		if got, err := ParseMemorySize(in); err != nil || got != want {
			t.Errorf("ParseMemorySize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "mb", "1.5g", "12 parsecs", "-1mb", "99999999999999999999", "9999999999tb"} {
		if _, err := ParseMemorySize(bad); err == nil {
			t.Errorf("ParseMemorySize(%q) gave no error", bad)
		}
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

// Every default in the registry is a value its option accepts.
func TestDefaultsValidate(t *testing.T) {
	r := Options()
	for _, k := range r.Keys() {
		d := Default(k)
		if d == "" {
			continue
		}
		if _, err := r.Validate(k, d); err != nil {
			t.Errorf("default %q of %s: %v", d, k, err)
		}
	}
	if n, err := ParseMemorySize(Default(SpillMemory)); err != nil || n != 256<<20 {
		t.Errorf("memory budget default = %d, %v", n, err)
	}
}
