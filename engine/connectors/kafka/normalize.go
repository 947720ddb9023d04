package kafka

import (
	"reflect"

	"eddy/engine/types"
)

// normalizer turns an upsert stream (the latest value of each key, or a
// tombstone) into a changelog, as Flink's ChangelogNormalize does: it
// keeps the last row of every key.
type normalizer struct {
	last map[string][]any
}

func newNormalizer() *normalizer { return &normalizer{last: map[string][]any{}} }

// upsert returns the changes a new value of key makes: +I for a new key,
// nothing for the row the key already has, -U of the old row and +U of
// the new one otherwise.
func (n *normalizer) upsert(key string, row []any) ([][]any, []types.RowKind) {
	old, ok := n.last[key]
	n.last[key] = row
	if !ok {
		return [][]any{row}, []types.RowKind{types.Insert}
	}
	if reflect.DeepEqual(old, row) {
		return nil, nil
	}
	return [][]any{old, row}, []types.RowKind{types.UpdateBefore, types.UpdateAfter}
}

// delete returns the change a tombstone of key makes: -D of its last row,
// nothing for a key never seen.
func (n *normalizer) delete(key string) ([][]any, []types.RowKind) {
	old, ok := n.last[key]
	if !ok {
		return nil, nil
	}
	delete(n.last, key)
	return [][]any{old}, []types.RowKind{types.Delete}
}
