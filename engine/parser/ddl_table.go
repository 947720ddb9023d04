package parser

import "eddy/engine/ast"

// parseCreateTable reads TABLE [IF NOT EXISTS] name [(elements)] [COMMENT]
// [DISTRIBUTED ...] [PARTITIONED BY (...)] [WITH (...)] [LIKE ... | AS
// query], after CREATE [OR REPLACE] [TEMPORARY] or REPLACE.
func (p *Parser) parseCreateTable(start ast.Pos, replace, orReplace, temporary bool) ast.Statement {
	p.expectKeyword("TABLE")
	s := &ast.CreateTable{Pos: start, Replace: replace, OrReplace: orReplace, Temporary: temporary}
	s.IfNotExists = p.ifNotExists()
	s.Name = p.compoundIdent()
	if p.acceptOp("(") {
		s.HasElements = true
		for {
			p.parseTableElement(s)
			if p.acceptOp(")") {
				break
			}
			p.expectOp(",")
		}
	}
	s.Comment = p.optComment()
	if p.tok().Is("DISTRIBUTED") {
		s.Distribution = p.parseDistribution("DISTRIBUTED")
	} else {
		p.expect(`"DISTRIBUTED"`)
	}
	if p.acceptKeyword("PARTITIONED") {
		p.expectKeyword("BY")
		s.PartitionBy = p.parseIdentList()
	}
	if p.acceptKeyword("WITH") {
		s.Options = p.parseProperties()
	}
	if p.tok().Is("LIKE") {
		s.Like = p.parseTableLike()
	} else {
		p.expect(`"LIKE"`)
		if p.acceptKeyword("AS") {
			s.Query, s.QuerySpan = p.querySpan()
		}
	}
	if replace && s.Query == nil {
		// Flink: REPLACE TABLE is only a CTAS form.
		p.expect(`"AS"`)
		p.fail()
	}
	return s
}

// parseTableElement reads one column, constraint or watermark of CREATE
// TABLE into s.
func (p *Parser) parseTableElement(s *ast.CreateTable) {
	switch {
	case p.isWatermark():
		w := p.parseWatermark()
		if len(s.Watermarks) > 0 {
			// Flink's multipleWatermarksUnsupported.
			p.errorf(w.Pos, "Multiple WATERMARK statements is not supported yet.")
		}
		s.Watermarks = append(s.Watermarks, w)
	case p.isTableConstraint():
		s.Constraints = append(s.Constraints, p.parseTableConstraint())
	default:
		if s.Columns == nil {
			s.Columns = make([]*ast.ColumnDef, 0, 8)
		}
		s.Columns = append(s.Columns, p.parseColumn(false))
	}
}

// isWatermark reports whether WATERMARK FOR starts here (WATERMARK alone
// may be a column name).
func (p *Parser) isWatermark() bool {
	if p.tok().Is("WATERMARK") && p.peek(1).Is("FOR") {
		return true
	}
	p.expect(`"WATERMARK"`)
	return false
}

// isTableConstraint reports whether [CONSTRAINT n] PRIMARY KEY | UNIQUE (
// starts here.
func (p *Parser) isTableConstraint() bool {
	t := p.tok()
	switch {
	case t.Is("CONSTRAINT") && p.peek(1).Kind != EOF && !p.peek(1).IsOp(",") && !p.peek(1).IsOp(")") && !p.peek(1).Is("AS"):
		return p.peek(2).Is("PRIMARY") || p.peek(2).Is("UNIQUE")
	case t.Is("PRIMARY") && p.peek(1).Is("KEY"):
		return true
	case t.Is("UNIQUE") && p.peek(1).IsOp("("):
		return true
	}
	p.expect(`"CONSTRAINT"`)
	p.expect(`"PRIMARY"`)
	p.expect(`"UNIQUE"`)
	return false
}

// parseWatermark reads WATERMARK FOR column AS expr.
func (p *Parser) parseWatermark() *ast.Watermark {
	t := p.expectKeyword("WATERMARK")
	p.expectKeyword("FOR")
	w := &ast.Watermark{Pos: t.Pos, Column: p.compoundIdent()}
	p.expectKeyword("AS")
	w.Expr = p.parseExpr()
	return w
}

// parseTableConstraint reads [CONSTRAINT n] PRIMARY KEY (cols) [[NOT]
// ENFORCED], or UNIQUE (cols).
func (p *Parser) parseTableConstraint() *ast.TableConstraint {
	c := &ast.TableConstraint{Pos: p.tok().Pos}
	if p.acceptKeyword("CONSTRAINT") {
		c.Name = p.simpleIdent()
	}
	c.Unique = p.parseUniqueSpec()
	c.Columns = p.parseIdentList()
	c.Enforcement = p.parseEnforcement()
	return c
}

func (p *Parser) parseUniqueSpec() (unique bool) {
	if p.acceptKeyword("UNIQUE") {
		return true
	}
	p.expectKeyword("PRIMARY", "KEY")
	return false
}

func (p *Parser) parseEnforcement() ast.Enforcement {
	switch {
	case p.acceptKeyword("NOT", "ENFORCED"):
		return ast.NotEnforced
	case p.acceptKeyword("ENFORCED"):
		return ast.Enforced
	}
	return ast.EnforcementUnset
}

// parseColumn reads a physical, computed or metadata column. In ALTER TABLE
// (alter set) a FIRST or AFTER col position may follow.
func (p *Parser) parseColumn(alter bool) *ast.ColumnDef {
	t := p.tok()
	c := p.nodes.columns.get()
	c.Pos, c.Name = t.Pos, p.simpleIdent()
	if p.acceptKeyword("AS") {
		c.Kind = ast.ComputedColumn
		c.Expr = p.parseExpr()
	} else if !alter && (p.isOp(",") || p.isOp(")")) {
		// Flink's TableColumnsOrIdentifiers: CTAS/RTAS may list bare names.
		c.Kind = ast.NameOnlyColumn
		return c
	} else {
		c.Type = p.parseDataType()
		if p.tok().Is("NOT") && p.peek(1).Is("NULL") {
			p.next()
			p.next()
			c.Type = c.Type.WithNullable(false)
		} else if p.tok().Is("NULL") {
			p.next()
		}
		if p.acceptKeyword("METADATA") {
			c.Kind = ast.MetadataColumn
			if p.acceptKeyword("FROM") {
				k := p.stringLiteral()
				c.MetadataKey = &k
			}
			c.Virtual = p.acceptKeyword("VIRTUAL")
		} else if p.isKeyword("CONSTRAINT", "PRIMARY", "UNIQUE") {
			pk := &ast.TableConstraint{Pos: p.tok().Pos, Inline: true, Columns: []*ast.Ident{c.Name}}
			if p.acceptKeyword("CONSTRAINT") {
				pk.Name = p.simpleIdent()
			}
			pk.Unique = p.parseUniqueSpec()
			pk.Enforcement = p.parseEnforcement()
			c.PrimaryKey = pk
		} else {
			p.expect(`"METADATA"`)
			p.expect(`"PRIMARY"`)
		}
	}
	c.Comment = p.optComment()
	if alter {
		c.Placement = p.parseColumnPosition()
	}
	return c
}

// parseColumnPosition reads [FIRST | AFTER col].
func (p *Parser) parseColumnPosition() *ast.ColumnPosition {
	t := p.tok()
	switch {
	case p.acceptKeyword("FIRST"):
		return &ast.ColumnPosition{Pos: t.Pos, First: true}
	case p.acceptKeyword("AFTER"):
		return &ast.ColumnPosition{Pos: t.Pos, After: p.simpleIdent()}
	}
	return nil
}

// parseDistribution reads kw (DISTRIBUTED or DISTRIBUTION) BY [HASH|RANGE]
// (cols) [INTO n BUCKETS], or kw INTO n BUCKETS.
func (p *Parser) parseDistribution(kw string) *ast.Distribution {
	d := &ast.Distribution{Pos: p.expectKeyword(kw).Pos}
	if p.acceptKeyword("BY") {
		switch {
		case p.acceptKeyword("HASH"):
			d.Kind = "HASH"
		case p.acceptKeyword("RANGE"):
			d.Kind = "RANGE"
		}
		d.Columns = p.parseIdentList()
		if p.acceptKeyword("INTO") {
			d.Buckets = p.parseBuckets()
		}
		return d
	}
	p.expectKeyword("INTO")
	d.Buckets = p.parseBuckets()
	return d
}

func (p *Parser) parseBuckets() int {
	t := p.tok()
	n := p.positiveInt()
	if n == 0 {
		p.errorf(t.Pos, "Bucket count must be a positive integer.")
	}
	p.expectKeyword("BUCKETS")
	return n
}

// likeFeatures lists, for each LIKE strategy, the features it takes
// (Flink's SqlTableLike: OVERWRITING only for GENERATED, METADATA, OPTIONS
// and WATERMARKS).
var likeFeatures = []string{"ALL", "CONSTRAINTS", "DISTRIBUTION", "GENERATED", "METADATA", "OPTIONS", "PARTITIONS", "WATERMARKS"}

// parseTableLike reads LIKE source [(option ...)].
func (p *Parser) parseTableLike() *ast.TableLike {
	l := &ast.TableLike{Pos: p.expectKeyword("LIKE").Pos, Source: p.compoundIdent()}
	if !p.acceptOp("(") {
		return l
	}
	for {
		o := &ast.LikeOption{Pos: p.tok().Pos}
		switch {
		case p.acceptKeyword("INCLUDING"):
			o.Strategy = "INCLUDING"
		case p.acceptKeyword("EXCLUDING"):
			o.Strategy = "EXCLUDING"
		case p.acceptKeyword("OVERWRITING"):
			o.Strategy = "OVERWRITING"
		default:
			p.fail()
		}
		for _, f := range likeFeatures {
			if p.acceptKeyword(f) {
				o.Feature = f
				break
			}
		}
		if o.Feature == "" {
			p.fail()
		}
		if o.Strategy == "OVERWRITING" {
			switch o.Feature {
			case "ALL", "CONSTRAINTS", "DISTRIBUTION", "PARTITIONS":
				// Flink's SqlTableLike.validate.
				p.errorf(o.Pos, "Illegal merging strategy 'OVERWRITING' for '%s' option.", o.Feature)
			}
		}
		l.Options = append(l.Options, o)
		if p.acceptOp(")") {
			return l
		}
	}
}

// parseAlterTable reads the rest of ALTER TABLE [IF EXISTS] name action.
func (p *Parser) parseAlterTable(start ast.Pos) ast.Statement {
	s := &ast.AlterTable{Pos: start, IfExists: p.ifExists(), Name: p.compoundIdent()}
	t := p.tok()
	switch {
	case p.acceptKeyword("RENAME"):
		if p.acceptKeyword("TO") {
			s.Action = &ast.RenameTable{Pos: t.Pos, NewName: p.compoundIdent()}
			break
		}
		col := p.compoundIdent()
		p.expectKeyword("TO")
		s.Action = &ast.RenameColumn{Pos: t.Pos, Column: col, NewName: p.simpleIdent()}
	case p.acceptKeyword("SET"):
		s.Action = &ast.SetTableOptions{Pos: t.Pos, Options: p.parseProperties()}
	case p.acceptKeyword("RESET"):
		s.Action = &ast.ResetTableOptions{Pos: t.Pos, Keys: p.parseKeyList()}
	case p.acceptKeyword("ADD"):
		if p.tok().Is("PARTITION") || p.tok().Is("IF") && p.peek(1).Is("NOT") && p.peek(2).Is("EXISTS") && p.peek(3).Is("PARTITION") {
			s.Action = p.parseAddPartitions(t.Pos)
			break
		}
		s.Action = p.parseAlterSchema(t.Pos, false)
	case p.acceptKeyword("MODIFY"):
		s.Action = p.parseAlterSchema(t.Pos, true)
	case p.acceptKeyword("DROP"):
		if p.tok().Is("PARTITION") || p.tok().Is("IF") && p.peek(1).Is("EXISTS") && p.peek(2).Is("PARTITION") {
			s.Action = p.parseDropPartitions(t.Pos)
			break
		}
		s.Action = p.parseDropSchema(t.Pos)
	case p.acceptKeyword("COMPACT"):
		s.Action = &ast.CompactTable{Pos: t.Pos}
	case p.acceptKeyword("PARTITION"):
		spec := p.parsePartitionSpec()
		p.expectKeyword("COMPACT")
		s.Action = &ast.CompactTable{Pos: t.Pos, Partition: spec}
	default:
		p.fail()
	}
	return s
}

// parseAddPartitions reads ADD [IF NOT EXISTS] PARTITION (...) [WITH
// (...)], one or more times.
func (p *Parser) parseAddPartitions(pos ast.Pos) *ast.AddPartitions {
	a := &ast.AddPartitions{Pos: pos, IfNotExists: p.ifNotExists()}
	for p.acceptKeyword("PARTITION") {
		a.Partitions = append(a.Partitions, p.parsePartitionSpec())
		var opts []*ast.Property
		if p.acceptKeyword("WITH") {
			opts = p.parseProperties()
		}
		a.Options = append(a.Options, opts)
	}
	if len(a.Partitions) == 0 {
		p.fail()
	}
	return a
}

// parseDropPartitions reads DROP [IF EXISTS] PARTITION (...) [, PARTITION
// (...)].
func (p *Parser) parseDropPartitions(pos ast.Pos) *ast.DropPartitions {
	d := &ast.DropPartitions{Pos: pos, IfExists: p.ifExists()}
	for {
		p.expectKeyword("PARTITION")
		d.Partitions = append(d.Partitions, p.parsePartitionSpec())
		if !p.acceptOp(",") {
			return d
		}
	}
}

// parseAlterSchema reads what follows ADD or MODIFY: one item or a
// parenthesised list of columns, constraints and watermarks, or a
// DISTRIBUTION.
func (p *Parser) parseAlterSchema(pos ast.Pos, modify bool) *ast.AlterSchema {
	a := &ast.AlterSchema{Pos: pos, Modify: modify}
	if p.acceptOp("(") {
		a.Paren = true
		for {
			a.Items = append(a.Items, p.parseSchemaItem())
			if p.acceptOp(")") {
				return a
			}
			p.expectOp(",")
		}
	}
	if p.tok().Is("DISTRIBUTION") && (p.peek(1).Is("BY") || p.peek(1).Is("INTO")) {
		a.Items = []ast.Node{p.parseDistribution("DISTRIBUTION")}
		return a
	}
	a.Items = []ast.Node{p.parseSchemaItem()}
	return a
}

func (p *Parser) parseSchemaItem() ast.Node {
	switch {
	case p.isWatermark():
		return p.parseWatermark()
	case p.isTableConstraint():
		return p.parseTableConstraint()
	}
	return p.parseColumn(true)
}

// parseDropSchema reads what follows ALTER TABLE ... DROP.
func (p *Parser) parseDropSchema(pos ast.Pos) *ast.DropSchema {
	d := &ast.DropSchema{Pos: pos}
	t := p.tok()
	switch {
	case t.Is("PRIMARY") && p.peek(1).Is("KEY"):
		p.next()
		p.next()
		d.Kind = ast.DropPrimaryKey
	case t.Is("CONSTRAINT") && p.peek(1).Kind != EOF && !p.peek(1).IsOp(";"):
		p.next()
		d.Kind = ast.DropConstraint
		d.Constraint = p.simpleIdent()
	case t.Is("WATERMARK") && !p.peek(1).IsOp("."):
		p.next()
		d.Kind = ast.DropWatermark
	case t.Is("DISTRIBUTION") && !p.peek(1).IsOp("."):
		p.next()
		d.Kind = ast.DropDistribution
	case p.acceptOp("("):
		d.Paren = true
		for {
			d.Columns = append(d.Columns, p.compoundIdent())
			if p.acceptOp(")") {
				break
			}
			p.expectOp(",")
		}
	default:
		d.Columns = []*ast.ObjectName{p.compoundIdent()}
	}
	return d
}

// parseAnalyze reads ANALYZE TABLE name [PARTITION (k [= v], ...)] COMPUTE
// STATISTICS [FOR COLUMNS a, ... | FOR ALL COLUMNS].
func (p *Parser) parseAnalyze() ast.Statement {
	start := p.expectKeyword("ANALYZE").Pos
	p.expectKeyword("TABLE")
	s := &ast.AnalyzeTable{Pos: start, Name: p.compoundIdent()}
	if p.acceptKeyword("PARTITION") {
		p.expectOp("(")
		for {
			t := p.tok()
			pv := &ast.PartitionValue{Pos: t.Pos, Key: p.simpleIdent()}
			if p.acceptOp("=") {
				pv.Value = p.parseLiteral()
			}
			s.Partition = append(s.Partition, pv)
			if p.acceptOp(")") {
				break
			}
			p.expectOp(",")
		}
	}
	p.expectKeyword("COMPUTE", "STATISTICS")
	if p.acceptKeyword("FOR") {
		if p.acceptKeyword("ALL", "COLUMNS") {
			s.AllColumns = true
			return s
		}
		p.expectKeyword("COLUMNS")
		for {
			s.ForColumns = append(s.ForColumns, p.simpleIdent())
			if !p.acceptOp(",") {
				break
			}
		}
	}
	return s
}
