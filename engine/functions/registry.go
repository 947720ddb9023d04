package functions

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"eddy/engine/types"
)

// Kind is what a function computes (Flink's FunctionKind).
type Kind uint8

// Function kinds.
const (
	Scalar    Kind = iota + 1 // one value per row
	Aggregate                 // one value per group; also usable with OVER
	Window                    // ranking and offset functions, only with OVER
	Table                     // table-valued functions such as TUMBLE
)

// String returns the kind as DESCRIBE FUNCTION EXTENDED prints it (Flink's
// FunctionKind; ranking functions count as OTHER).
func (k Kind) String() string {
	switch k {
	case Scalar:
		return "SCALAR"
	case Aggregate:
		return "AGGREGATE"
	case Window:
		return "OTHER"
	case Table:
		return "TABLE"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Operand is one argument of a call as type inference sees it.
type Operand struct {
	Type *types.Type
	// Int holds the value of an integer literal argument (ROUND's digits,
	// TO_TIMESTAMP_LTZ's precision); nil for any other expression.
	Int *int64
}

// Overload is one accepted argument list: a family per position. When
// Variadic is set the last family repeats, and the call needs at least
// MinArgs arguments.
type Overload struct {
	Params   []Family
	Variadic bool
	MinArgs  int
	// Shown, when set, are the parameter names Flink prints for this
	// overload where they differ from the families' own (IF's first form
	// reads IF(<ANY_TYPE>, <NUMERIC_TYPE>, <NUMERIC_TYPE>)).
	Shown []string
}

func (o Overload) accepts(n int) bool {
	if o.Variadic {
		return n >= o.MinArgs
	}
	return n == len(o.Params)
}

func (o Overload) family(i int) Family {
	if i >= len(o.Params) {
		return o.Params[len(o.Params)-1]
	}
	return o.Params[i]
}

// form prints the overload as Calcite prints allowed signatures:
// NAME(<NUMERIC>, <CHARACTER>).
func (o Overload) form(name string) string {
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('(')
	for i, f := range o.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		name := f.String()
		if i < len(o.Shown) {
			name = o.Shown[i]
		}
		b.WriteString("<" + name + ">")
	}
	if o.Variadic {
		b.WriteString("...")
	}
	b.WriteByte(')')
	return b.String()
}

// ReturnFunc derives a call's result type from its operands, whose types
// already match one of the function's overloads.
type ReturnFunc func(name string, ops []Operand) (*types.Type, error)

// Func is one built-in function.
type Func struct {
	Name          string   // upper-case, as Flink prints it
	Synonyms      []string // other names of the same function (CEILING for CEIL)
	Kind          Kind
	Deterministic bool
	Overloads     []Overload
	Return        ReturnFunc
	// ArgCount, when set, is the error of a call whose number of
	// arguments no overload takes, for functions whose message is not
	// Calcite's InvalidArgCount.
	ArgCount func(name string, ops []Operand) error
}

// MinArgs returns the fewest arguments any overload takes.
func (f *Func) MinArgs() int {
	n := -1
	for _, o := range f.Overloads {
		m := len(o.Params)
		if o.Variadic {
			m = o.MinArgs
		}
		if n < 0 || m < n {
			n = m
		}
	}
	return max(n, 0)
}

// Signature returns the accepted signatures, one a line, as DESCRIBE
// FUNCTION EXTENDED prints them (SUM(<NUMERIC>)).
func (f *Func) Signature() string {
	forms := make([]string, len(f.Overloads))
	for i, o := range f.Overloads {
		forms[i] = o.form(f.Name)
	}
	return strings.Join(forms, "\n")
}

// Infer returns the result type of a call with arguments of the given types.
func (f *Func) Infer(args []*types.Type) (*types.Type, error) {
	ops := make([]Operand, len(args))
	for i, a := range args {
		ops[i] = Operand{Type: a}
	}
	return f.InferOperands(ops)
}

// InferOperands returns the result type of a call. It fails with
// *ArgCountError when no overload takes that many arguments and with
// *ArgTypeError when the types fit none.
func (f *Func) InferOperands(ops []Operand) (*types.Type, error) {
	countOK := false
	for _, o := range f.Overloads {
		if !o.accepts(len(ops)) {
			continue
		}
		countOK = true
		match := true
		for i, op := range ops {
			if !o.family(i).Accepts(op.Type) {
				match = false
				break
			}
		}
		if match {
			return f.Return(f.Name, ops)
		}
	}
	if !countOK {
		if f.ArgCount != nil {
			return nil, f.ArgCount(f.Name, ops)
		}
		return nil, &ArgCountError{Func: f.Name, Want: f.MinArgs()}
	}
	args := make([]*types.Type, len(ops))
	for i, op := range ops {
		args[i] = op.Type
	}
	return nil, f.typeError(args)
}

func (f *Func) typeError(args []*types.Type) *ArgTypeError {
	forms := make([]string, len(f.Overloads))
	for i, o := range f.Overloads {
		forms[i] = o.form(f.Name)
	}
	return &ArgTypeError{Func: f.Name, Args: args, Forms: forms}
}

// Registry holds the built-in functions by name.
type Registry struct {
	// once builds the functions on first use: a session that runs no
	// query does not pay for them.
	once   sync.Once
	funcs  []*Func
	byName map[string]*Func
	// dups lists names registered twice (a mistake in this package that a
	// test reports); the first registration wins.
	dups []string
}

// NewRegistry returns a registry of Flink's built-in functions.
func NewRegistry() *Registry { return &Registry{} }

// load registers every function, once.
func (r *Registry) load() { r.once.Do(r.build) }

func (r *Registry) build() {
	r.byName = map[string]*Func{}
	r.addMath()
	r.addString()
	r.addTemporal()
	r.addConditional()
	r.addCollection()
	r.addJSON()
	r.addVariant()
	r.addMisc()
	r.addAggregates()
	r.addWindow()
	r.indexSynonyms()
	sort.Slice(r.funcs, func(i, j int) bool { return r.funcs[i].Name < r.funcs[j].Name })
}

func (r *Registry) add(f *Func) {
	if _, dup := r.byName[f.Name]; dup {
		r.dups = append(r.dups, f.Name)
		return
	}
	r.funcs = append(r.funcs, f)
	r.byName[f.Name] = f
}

// indexSynonyms makes every synonym find its function; it runs once all
// functions are registered (families set Synonyms after registering).
func (r *Registry) indexSynonyms() {
	for _, f := range r.funcs {
		for _, s := range f.Synonyms {
			if _, dup := r.byName[s]; dup {
				r.dups = append(r.dups, s)
				continue
			}
			r.byName[s] = f
		}
	}
}

// Lookup finds a function by name, ignoring case, as Flink resolves
// built-in function names.
func (r *Registry) Lookup(name string) (*Func, bool) {
	r.load()
	f, ok := r.byName[strings.ToUpper(name)]
	return f, ok
}

// Functions returns every function, sorted by name.
func (r *Registry) Functions() []*Func {
	r.load()
	return append([]*Func(nil), r.funcs...)
}

// Names returns every name and synonym in lower case, sorted, as SHOW
// FUNCTIONS lists built-in functions.
func (r *Registry) Names() []string {
	r.load()
	out := make([]string, 0, len(r.byName))
	for n := range r.byName {
		out = append(out, strings.ToLower(n))
	}
	sort.Strings(out)
	return out
}

// sig builds a fixed-arity overload.
func sig(fams ...Family) Overload { return Overload{Params: fams} }

// shown returns o printed with the given parameter names.
func (o Overload) shown(names ...string) Overload {
	o.Shown = names
	return o
}

// varsig builds an overload whose last family repeats, with at least min
// arguments.
func varsig(min int, fams ...Family) Overload {
	return Overload{Params: fams, Variadic: true, MinArgs: min}
}

// scalar registers a deterministic scalar function.
func (r *Registry) scalar(name string, ret ReturnFunc, overloads ...Overload) *Func {
	f := &Func{Name: name, Kind: Scalar, Deterministic: true, Overloads: overloads, Return: ret}
	r.add(f)
	return f
}
