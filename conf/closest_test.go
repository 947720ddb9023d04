package conf

import "testing"

func TestMisspelt(t *testing.T) {
	r := Options()
	cases := []struct {
		key, want string
		ok        bool
	}{
		{"execution.runtime-mod", RuntimeMode, true},
		{"sql-client.execution.result-mod", ResultMode, true},
		{"eddy.exec.memory-budgt", SpillMemory, true},
		{RuntimeMode, "", false},                     // known
		{"a.b", "", false},                           // not a namespace of Flink or eddy
		{"table.exec.mini-batch.enabled", "", false}, // a Flink key far from any eddy knows
		{"my.execution.runtime-mod", "", false},      // namespace is a prefix
	}
	for _, c := range cases {
		got, ok := r.Misspelt(c.key)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("Misspelt(%q) = %q, %v; want %q, %v", c.key, got, ok, c.want, c.ok)
		}
	}
}
