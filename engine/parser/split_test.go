package parser

import (
	"reflect"
	"testing"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
		rest string
	}{
		{"simple", "SELECT 1; SELECT 2;", []string{"SELECT 1", "SELECT 2"}, ""},
		{"string", "SELECT 'a;b'; x", []string{"SELECT 'a;b'"}, " x"},
		{"backtick", "SELECT `x;y` FROM t;", []string{"SELECT `x;y` FROM t"}, ""},
		{"line comment", "SELECT -- ;\n1;", []string{"SELECT -- ;\n1"}, ""},
		{"block comment", "SELECT /* ; */ 1;", []string{"SELECT /* ; */ 1"}, ""},
		{"hint", "SELECT /*+ OPTIONS('a'=';') */ 1;", []string{"SELECT /*+ OPTIONS('a'=';') */ 1"}, ""},
		{"open string", "SELECT 'a;", nil, "SELECT 'a;"},
		{"open comment", "SELECT /* ;", nil, "SELECT /* ;"},
		{"last without semicolon", "SET;\nSELECT 1", []string{"SET"}, "\nSELECT 1"},
		{"crlf", "SELECT 1;\r\nSELECT 2;\r\n", []string{"SELECT 1", "SELECT 2"}, "\r\n"},
		{"bom", "\uFEFFSELECT 1;", []string{"SELECT 1"}, ""},
		{"empty statements", ";;  ; -- c\n;", nil, ""},
		{"multi-line quote", "SELECT ';\n';", []string{"SELECT ';\n'"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, rest := Split(tc.in)
			var texts []string
			for _, p := range got {
				texts = append(texts, p.Text)
			}
			if !reflect.DeepEqual(texts, tc.want) || rest != tc.rest {
				t.Errorf("Split(%q) = %q, rest %q; want %q, rest %q", tc.in, texts, rest, tc.want, tc.rest)
			}
		})
	}
}

func TestSplitLines(t *testing.T) {
	got, _ := Split("SELECT 1;\n\n  -- c\nSELECT\n2;")
	if len(got) != 2 || got[0].Line != 1 || got[1].Line != 3 {
		t.Fatalf("lines: %+v", got)
	}
}

func TestIsComplete(t *testing.T) {
	for in, want := range map[string]bool{
		"SELECT 1;":         true,
		"SELECT 1":          false,
		"SELECT ';'":        false,
		"SELECT 1; -- done": true,
		"SELECT 1; SELECT":  false,
		"":                  false,
	} {
		if got := IsComplete(in); got != want {
			t.Errorf("IsComplete(%q) = %v, want %v", in, got, want)
		}
	}
}
