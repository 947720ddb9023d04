package conf

import "strings"

// namespaces are the key prefixes of Flink's and eddy's own options: a key
// under one of them that eddy does not know is likely a misspelling.
var namespaces = []string{"execution.", "table.", "sql-client.", "eddy.", "pipeline.", "parallelism."}

// maxTypos bounds the edits between a misspelt key and the known key it
// is taken for.
const maxTypos = 3

// Misspelt reports whether key, which the registry does not know, lies in
// Flink's or eddy's namespaces and is within a few edits of a key it does
// know, and returns that closest key.
func (r *Registry) Misspelt(key string) (closest string, ok bool) {
	if _, known := r.byKey[key]; known || !inNamespace(key) {
		return "", false
	}
	best := maxTypos + 1
	for _, k := range r.Keys() {
		if d := editDistance(strings.ToLower(key), k); d < best {
			best, closest = d, k
		}
	}
	return closest, best <= maxTypos
}

func inNamespace(key string) bool {
	for _, ns := range namespaces {
		if strings.HasPrefix(strings.ToLower(key), ns) {
			return true
		}
	}
	return false
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
