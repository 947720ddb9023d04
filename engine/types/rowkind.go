package types

// RowKind is the change a row carries in a changelog (Flink's RowKind).
type RowKind uint8

// The four row kinds. Insert is the zero value: a batch row is an insert.
const (
	Insert       RowKind = iota // +I
	UpdateBefore                // -U
	UpdateAfter                 // +U
	Delete                      // -D
)

var rowKindShort = [...]string{"+I", "-U", "+U", "-D"}

// String returns Flink's short string: +I, -U, +U or -D.
func (k RowKind) String() string {
	if int(k) < len(rowKindShort) {
		return rowKindShort[k]
	}
	return "?"
}

// IsAccumulate reports whether a row of this kind adds to a result (+I, +U).
func (k RowKind) IsAccumulate() bool { return k == Insert || k == UpdateAfter }
