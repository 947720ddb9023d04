package parser

import "testing"

func BenchmarkH1Split(b *testing.B) {
	script := benchScript(1 << 20)
	b.SetBytes(int64(len(script)))
	for i := 0; i < b.N; i++ {
		Split(script)
	}
}

func BenchmarkH1Tokenize(b *testing.B) {
	script := benchScript(1 << 20)
	pieces, _ := Split(script)
	b.SetBytes(int64(len(script)))
	for i := 0; i < b.N; i++ {
		for _, pc := range pieces {
			Tokenize(pc.Text)
		}
	}
}

func BenchmarkH1Parse(b *testing.B) {
	script := benchScript(1 << 20)
	pieces, _ := Split(script)
	b.SetBytes(int64(len(script)))
	for i := 0; i < b.N; i++ {
		for _, pc := range pieces {
			Parse(pc.Text)
		}
	}
}
