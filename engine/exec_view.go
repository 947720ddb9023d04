package engine

import (
	"context"

	"eddy/engine/ast"
)

// execCreateView and execAlterViewAs need the query validator to derive
// the view's expanded text and frozen schema.
func (s *Session) execCreateView(ctx context.Context, st *ast.CreateView) (*Result, error) {
	return nil, unsupported(st)
}

func (s *Session) execAlterViewAs(ctx context.Context, st *ast.AlterViewAs) (*Result, error) {
	return nil, unsupported(st)
}

func (s *Session) execDropView(ctx context.Context, st *ast.DropView) (*Result, error) {
	id, err := s.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	if st.Temporary {
		return success(s.cat.DropTemporaryView(id, st.IfExists))
	}
	return success(s.cat.DropView(ctx, id, st.IfExists))
}

func (s *Session) execAlterViewRename(ctx context.Context, st *ast.AlterViewRename) (*Result, error) {
	from, err := s.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	to, err := s.cat.Qualify(st.NewName.Names()...)
	if err != nil {
		return nil, err
	}
	return success(s.cat.RenameView(ctx, from, to))
}
