package parser

import "testing"

func TestH1Count(t *testing.T) {
	script := benchScript(1 << 20)
	toks, _ := Tokenize(script)
	t.Logf("bytes %d tokens %d ratio %.2f", len(script), len(toks), float64(len(script))/float64(len(toks)))
}
