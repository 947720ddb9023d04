package ddl

import (
	"context"
	"maps"
	"slices"
	"strings"

	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/result"
	"eddy/engine/sqlerr"
)

func (ex *Executor) execCreateCatalog(ctx context.Context, st *ast.CreateCatalog) (*result.Result, error) {
	desc := catalogs.CatalogDescriptor{Name: st.Name.Name, Options: properties(st.Options)}
	if desc.Options == nil {
		desc.Options = map[string]string{}
	}
	if st.Comment != nil {
		desc.Comment = *st.Comment
	}
	return success(ex.cat.CreateCatalog(ctx, desc, st.IfNotExists))
}

func (ex *Executor) execAlterCatalog(ctx context.Context, st *ast.AlterCatalog) (*result.Result, error) {
	name := st.Name.Name
	switch st.Action {
	case ast.AlterCatalogSet:
		return success(ex.cat.AlterCatalogOptions(ctx, name, properties(st.Options), nil))
	case ast.AlterCatalogReset:
		if len(st.ResetKeys) == 0 {
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "ALTER CATALOG RESET does not support empty key")
		}
		for _, k := range st.ResetKeys {
			if k == catalogs.OptionType {
				return nil, sqlerr.Errorf(sqlerr.ValidationException, "ALTER CATALOG RESET does not support changing 'type'")
			}
		}
		return success(ex.cat.AlterCatalogOptions(ctx, name, nil, st.ResetKeys))
	default:
		return success(ex.cat.AlterCatalogComment(ctx, name, st.Comment))
	}
}

// showCreateCatalog prints Flink's ShowCreateUtil.buildShowCreateCatalogRow
// layout: name, optional COMMENT line, then the options sorted by key.
func (ex *Executor) showCreateCatalog(ctx context.Context, name string) (*result.Result, error) {
	info, err := ex.cat.DescribeCatalog(ctx, name)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("CREATE CATALOG ")
	b.WriteString(quoteIdent(name))
	b.WriteByte('\n')
	if c := info.Descriptor.Comment; c != "" {
		b.WriteString("COMMENT ")
		b.WriteString(quoteString(c))
		b.WriteByte('\n')
	}
	writeOptions(&b, info.Descriptor.Options)
	return result.StringTable([]string{"result"}, [][]any{{b.String()}}), nil
}

// writeOptions writes a WITH (...) block with sorted keys and a final newline;
// nothing for no options. Secrets are masked.
func writeOptions(b *strings.Builder, opts map[string]string) {
	if len(opts) == 0 {
		return
	}
	b.WriteString("WITH (\n")
	keys := slices.Sorted(maps.Keys(opts))
	for i, k := range keys {
		b.WriteString("  ")
		b.WriteString(quoteString(k))
		b.WriteString(" = ")
		b.WriteString(quoteString(maskSecret(k, opts[k])))
		if i < len(keys)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(")\n")
}

// maskSecret hides the values of options that hold credentials in SHOW
// CREATE output.
func maskSecret(key, value string) string { return catalogs.MaskOption(key, value) }

// describeCatalog prints DESCRIBE CATALOG [EXTENDED]: name, type, comment,
// and with EXTENDED one option:<key> row per option but 'type'.
func (ex *Executor) describeCatalog(ctx context.Context, name string, extended bool) (*result.Result, error) {
	info, err := ex.cat.DescribeCatalog(ctx, name)
	if err != nil {
		return nil, err
	}
	d := info.Descriptor
	rows := [][]any{{"name", d.Name}, {"type", d.Type()}, {"comment", d.Comment}}
	if extended {
		for _, k := range slices.Sorted(maps.Keys(d.Options)) {
			if k == catalogs.OptionType {
				continue
			}
			rows = append(rows, []any{"option:" + k, maskSecret(k, d.Options[k])})
		}
	}
	return result.StringTable([]string{"info name", "info value"}, rows), nil
}

func quoteIdent(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
