package hive

import (
	"fmt"
	"strconv"
	"strings"

	"eddy/engine/types"
)

// hiveTypeName returns the Hive type of a Flink type (Flink's
// HiveTypeUtil.toHiveTypeInfo), or an error for types Hive has none of.
func hiveTypeName(t *types.Type) (string, error) {
	switch t.Kind {
	case types.Boolean:
		return "boolean", nil
	case types.TinyInt:
		return "tinyint", nil
	case types.SmallInt:
		return "smallint", nil
	case types.Int:
		return "int", nil
	case types.BigInt:
		return "bigint", nil
	case types.Float:
		return "float", nil
	case types.Double:
		return "double", nil
	case types.Decimal:
		return fmt.Sprintf("decimal(%d,%d)", t.Prec, t.Scale), nil
	case types.Date:
		return "date", nil
	case types.Timestamp:
		return "timestamp", nil
	case types.Char:
		if t.Length <= 255 {
			return fmt.Sprintf("char(%d)", t.Length), nil
		}
		return "string", nil
	case types.VarChar:
		if t.Length == types.MaxLength || t.Length > 65535 {
			return "string", nil
		}
		return fmt.Sprintf("varchar(%d)", t.Length), nil
	case types.Binary, types.VarBinary:
		return "binary", nil
	case types.Array:
		e, err := hiveTypeName(t.Elem)
		if err != nil {
			return "", err
		}
		return "array<" + e + ">", nil
	case types.Map:
		k, err := hiveTypeName(t.Elem)
		if err != nil {
			return "", err
		}
		v, err := hiveTypeName(t.Val)
		if err != nil {
			return "", err
		}
		return "map<" + k + "," + v + ">", nil
	case types.Row:
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			ft, err := hiveTypeName(f.Type)
			if err != nil {
				return "", err
			}
			parts[i] = f.Name + ":" + ft
		}
		return "struct<" + strings.Join(parts, ",") + ">", nil
	}
	return "", fmt.Errorf("Flink type %s has no Hive equivalent", t)
}

// flinkType returns the Flink type of a Hive type name (Flink's
// HiveTypeUtil.toFlinkType).
func flinkType(s string) (*types.Type, error) {
	p := &typeParser{s: strings.TrimSpace(s)}
	t, err := p.parse()
	if err != nil {
		return nil, err
	}
	if p.i != len(p.s) {
		return nil, fmt.Errorf("unsupported Hive type '%s'", s)
	}
	return t, nil
}

type typeParser struct {
	s string
	i int
}

func (p *typeParser) word() string {
	j := p.i
	for j < len(p.s) && (p.s[j] == '_' || p.s[j] >= 'a' && p.s[j] <= 'z' || p.s[j] >= 'A' && p.s[j] <= 'Z' || p.s[j] >= '0' && p.s[j] <= '9') {
		j++
	}
	w := p.s[p.i:j]
	p.i = j
	return w
}

func (p *typeParser) eat(c byte) bool {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *typeParser) ints() ([]int, error) {
	var out []int
	if !p.eat('(') {
		return nil, nil
	}
	for {
		for p.i < len(p.s) && p.s[p.i] == ' ' {
			p.i++
		}
		n, err := strconv.Atoi(p.word())
		if err != nil {
			return nil, fmt.Errorf("bad type parameter in Hive type '%s'", p.s)
		}
		out = append(out, n)
		if p.eat(')') {
			return out, nil
		}
		if !p.eat(',') {
			return nil, fmt.Errorf("bad Hive type '%s'", p.s)
		}
	}
}

func (p *typeParser) parse() (*types.Type, error) {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
	name := strings.ToLower(p.word())
	switch name {
	case "boolean":
		return types.New(types.Boolean), nil
	case "tinyint":
		return types.New(types.TinyInt), nil
	case "smallint":
		return types.New(types.SmallInt), nil
	case "int", "integer":
		return types.New(types.Int), nil
	case "bigint":
		return types.New(types.BigInt), nil
	case "float":
		return types.New(types.Float), nil
	case "double":
		return types.New(types.Double), nil
	case "date":
		return types.New(types.Date), nil
	case "timestamp":
		return types.NewTimestamp(9), nil
	case "string":
		return types.NewString(), nil
	case "binary":
		return types.NewVarBinary(types.MaxLength), nil
	case "decimal", "numeric":
		n, err := p.ints()
		if err != nil {
			return nil, err
		}
		switch len(n) {
		case 0:
			return types.NewDecimal(types.DefaultDecimalPrec, 0), nil
		case 1:
			return types.NewDecimal(n[0], 0), nil
		}
		return types.NewDecimal(n[0], n[1]), nil
	case "char", "varchar":
		n, err := p.ints()
		if err != nil || len(n) != 1 {
			return nil, fmt.Errorf("bad Hive type '%s'", p.s)
		}
		if name == "char" {
			return types.NewChar(n[0]), nil
		}
		return types.NewVarChar(n[0]), nil
	case "array":
		if !p.eat('<') {
			return nil, fmt.Errorf("bad Hive type '%s'", p.s)
		}
		e, err := p.parse()
		if err != nil {
			return nil, err
		}
		if !p.eat('>') {
			return nil, fmt.Errorf("bad Hive type '%s'", p.s)
		}
		return types.NewArray(e), nil
	case "map":
		if !p.eat('<') {
			return nil, fmt.Errorf("bad Hive type '%s'", p.s)
		}
		k, err := p.parse()
		if err != nil {
			return nil, err
		}
		if !p.eat(',') {
			return nil, fmt.Errorf("bad Hive type '%s'", p.s)
		}
		v, err := p.parse()
		if err != nil {
			return nil, err
		}
		if !p.eat('>') {
			return nil, fmt.Errorf("bad Hive type '%s'", p.s)
		}
		return types.NewMap(k, v), nil
	case "struct":
		if !p.eat('<') {
			return nil, fmt.Errorf("bad Hive type '%s'", p.s)
		}
		var fields []types.Field
		for {
			for p.i < len(p.s) && p.s[p.i] == ' ' {
				p.i++
			}
			fname := p.word()
			if fname == "" || !p.eat(':') {
				return nil, fmt.Errorf("bad Hive type '%s'", p.s)
			}
			ft, err := p.parse()
			if err != nil {
				return nil, err
			}
			fields = append(fields, types.Field{Name: fname, Type: ft})
			if p.eat('>') {
				return types.NewRow(fields...), nil
			}
			if !p.eat(',') {
				return nil, fmt.Errorf("bad Hive type '%s'", p.s)
			}
		}
	}
	return nil, fmt.Errorf("unsupported Hive type '%s'", p.s)
}
