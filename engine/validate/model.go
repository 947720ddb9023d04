package validate

import (
	"slices"
	"strings"

	"eddy/engine/ast"
	"eddy/engine/plan"
	"eddy/engine/types"
)

// modelCall validates ML_PREDICT and ML_EVALUATE as Flink 2.2 does up to
// the point where the model's provider is needed: the input table and the
// model must exist, and for ML_PREDICT the DESCRIPTOR's columns must be
// columns of the table, as many as the model's input columns, each
// implicitly castable to its input column. Running a model takes a model
// provider (Flink's ModelProviderFactory, from a provider's jar); the
// local engine has none, so a valid call fails as Flink does without one.
func (s *state) modelCall(t *ast.ModelCall, qs *qscope) (ast.TableExpr, plan.Node, error) {
	var table, model *ast.ObjectName
	var desc *ast.Descriptor
	for _, a := range t.Args {
		switch {
		case a.Table != nil && table == nil:
			table = a.Table
		case a.Model != nil && model == nil:
			model = a.Model
		case a.Expr != nil && desc == nil:
			desc, _ = a.Expr.(*ast.Descriptor)
		}
	}
	if table == nil || model == nil || (t.Func == "ML_PREDICT" && desc == nil) {
		return nil, nil, errorf(t.Pos, ErrInvalidCall,
			"%s takes a TABLE, a MODEL and a DESCRIPTOR of the table's columns the model reads.", t.Func)
	}
	_, cols, _, err := s.resolveObject(table, nil)
	if err != nil {
		return nil, nil, err
	}
	id, err := s.a.Catalogs.Qualify(model.Names()...)
	if err != nil {
		return nil, nil, err
	}
	e, ok, err := s.a.Catalogs.GetModel(s.ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, nil, errorf(model.Position(), ErrTableNotFound, "Object '%s' not found", id.Object)
	}
	if t.Func == "ML_PREDICT" {
		names := make([]string, len(cols))
		for i, c := range cols {
			names[i] = c.Name
		}
		picked := make([]*types.Type, len(desc.Cols))
		for i, c := range desc.Cols {
			j := slices.Index(names, c.Name)
			if j < 0 {
				return nil, nil, errorf(c.Pos, ErrInvalidCall, "Descriptor column '%s' not found in table columns. Available columns: %s.",
					c.Name, strings.Join(names, ", "))
			}
			picked[i] = cols[j].Type
		}
		if len(picked) != len(e.Model.Input) {
			return nil, nil, errorf(desc.Pos, ErrInvalidCall, "Number of descriptor columns (%d) does not match model input size (%d).",
				len(picked), len(e.Model.Input))
		}
		for i, in := range e.Model.Input {
			if !implicitlyCastable(picked[i], in.Type) {
				return nil, nil, errorf(desc.Cols[i].Pos, ErrInvalidCall,
					"Descriptor column '%s' type %s cannot be assigned to model input type %s at position %d.",
					desc.Cols[i].Name, picked[i], in.Type, i)
			}
		}
	}
	return nil, nil, errorf(t.Pos, ErrInvalidCall,
		"Could not find any factories that implement 'org.apache.flink.table.factories.ModelProviderFactory' in the classpath.")
}

// numericRank orders the numeric kinds by Flink's implicit widening
// (TINYINT to DOUBLE).
var numericRank = map[types.Kind]int{types.TinyInt: 1, types.SmallInt: 2, types.Int: 3, types.BigInt: 4,
	types.Decimal: 5, types.Float: 6, types.Double: 7}

// implicitlyCastable reports whether a value of type from may be passed
// where to is expected without a CAST: the same kind, a character or a
// binary string to another, a number to a wider number.
func implicitlyCastable(from, to *types.Type) bool {
	switch {
	case from.Kind == to.Kind:
		return true
	case from.Kind.IsCharacterString() && to.Kind.IsCharacterString():
		return true
	case (from.Kind == types.Binary || from.Kind == types.VarBinary) && (to.Kind == types.Binary || to.Kind == types.VarBinary):
		return true
	case from.Kind.IsNumeric() && to.Kind.IsNumeric():
		return numericRank[from.Kind] <= numericRank[to.Kind]
	}
	return false
}
