package engine

import (
	"eddy/catalogs"
	"eddy/engine/ast"
)

// execSet runs SET; (list the configured keys, credentials hidden) and
// SET 'k' = 'v'.
func (s *Session) execSet(st *ast.Set) (*Result, error) {
	if st.Key == nil {
		kv := s.conf.list()
		rows := make([][]any, len(kv))
		for i, p := range kv {
			rows[i] = []any{p[0], catalogs.MaskOption(p[0], p[1])}
		}
		return StringTable([]string{"key", "value"}, rows), nil
	}
	if err := s.conf.setKey(*st.Key, st.Value); err != nil {
		return nil, err
	}
	return Success(), nil
}

// execReset runs RESET; (drop every SET of the session) and RESET 'k'.
func (s *Session) execReset(st *ast.Reset) (*Result, error) {
	if st.Key == nil {
		s.conf.resetAll()
	} else {
		s.conf.resetKey(*st.Key)
	}
	return Success(), nil
}
