package parser

import (
	"strconv"
	"strings"

	"eddy/engine/ast"
)

// DialectHive is the value of table.sql-dialect that selects the Hive
// dialect.
const DialectHive = "hive"

// Options the Hive dialect's CREATE TABLE clauses become (Flink's
// SqlCreateHiveTable constants); the hive catalog turns them into the
// table's storage descriptor.
const (
	HiveOptConnector    = "connector"
	HiveOptLocation     = "hive.location-uri"
	HiveOptExternal     = "hive.is-external"
	HiveOptFileFormat   = "hive.storage.file-format"
	HiveOptInputFormat  = "hive.stored.as.input.format"
	HiveOptOutputFormat = "hive.stored.as.output.format"
	HiveOptSerdeLib     = "hive.serde.lib.class.name"
	HiveOptSerdeProp    = "hive.serde.info.prop."
	HiveOptDBLocation   = "hive.database.location-uri"
)

// ParseDialect parses one statement in a SQL dialect: "hive" reads the
// Hive dialect's own forms of CREATE TABLE (PARTITIONED BY typed columns,
// ROW FORMAT, STORED AS, LOCATION, TBLPROPERTIES) and CREATE DATABASE
// (LOCATION, WITH DBPROPERTIES); every other statement, and every
// statement of another dialect, is read as Parse reads it.
func ParseDialect(sql, dialect string) (ast.Statement, error) {
	if !strings.EqualFold(dialect, DialectHive) {
		return Parse(sql)
	}
	var stmt ast.Statement
	err := run(sql, func(p *Parser) {
		stmt = p.parseHiveStatement()
		if stmt != nil {
			p.acceptOp(";")
			p.expectEOF()
		}
	})
	if err != nil {
		return nil, err
	}
	if stmt == nil {
		return Parse(sql)
	}
	return stmt, nil
}

// parseHiveStatement reads a statement of the Hive dialect's own, or
// returns nil (consuming nothing) for one the default grammar reads.
func (p *Parser) parseHiveStatement() ast.Statement {
	if p.tok().Is("ALTER") && p.peek(1).Is("TABLE") {
		return p.parseHiveAlterPartitions()
	}
	if !p.tok().Is("CREATE") {
		return nil
	}
	i := 1
	temporary := p.peek(i).Is("TEMPORARY")
	if temporary {
		i++
	}
	external := p.peek(i).Is("EXTERNAL")
	if external {
		i++
	}
	switch {
	case p.peek(i).Is("TABLE"):
		start := p.next().Pos
		for j := 1; j < i; j++ {
			p.next()
		}
		return p.parseHiveCreateTable(start, temporary, external)
	case i == 1 && (p.peek(1).Is("DATABASE") || p.peek(1).Is("SCHEMA")):
		start := p.next().Pos
		p.next()
		return p.parseHiveCreateDatabase(start)
	}
	return nil
}

// parseHiveAlterPartitions reads ALTER TABLE [IF EXISTS] name ADD [IF NOT
// EXISTS] PARTITION (k = v, ...) [LOCATION 'path'] [PARTITION ...] or DROP
// [IF EXISTS] PARTITION (...) [, PARTITION (...)], or returns nil
// (consuming nothing) for another ALTER TABLE.
func (p *Parser) parseHiveAlterPartitions() ast.Statement {
	m := p.mark()
	start := p.next().Pos
	p.next()
	s := &ast.AlterTable{Pos: start, IfExists: p.ifExists(), Name: p.compoundIdent()}
	t := p.tok()
	switch {
	case t.Is("ADD") && (p.peek(1).Is("PARTITION") || p.peek(1).Is("IF") && p.peek(2).Is("NOT")):
		p.next()
		a := &ast.AddPartitions{Pos: t.Pos, IfNotExists: p.ifNotExists()}
		p.expectKeyword("PARTITION")
		for {
			a.Partitions = append(a.Partitions, p.parsePartitionSpec())
			// LOCATION becomes the partition property Flink's Hive
			// dialect gives it.
			var opts []*ast.Property
			if lt := p.tok(); p.acceptKeyword("LOCATION") {
				opts = []*ast.Property{{Pos: lt.Pos, Key: HiveOptLocation, Value: p.stringLiteral()}}
			}
			a.Options = append(a.Options, opts)
			if !p.acceptKeyword("PARTITION") {
				break
			}
		}
		s.Action = a
	case t.Is("DROP") && (p.peek(1).Is("PARTITION") || p.peek(1).Is("IF") && p.peek(2).Is("EXISTS") && p.peek(3).Is("PARTITION")):
		p.next()
		a := &ast.DropPartitions{Pos: t.Pos, IfExists: p.ifExists()}
		p.expectKeyword("PARTITION")
		for {
			a.Partitions = append(a.Partitions, p.parsePartitionSpec())
			if !p.acceptOp(",") {
				break
			}
			p.expectKeyword("PARTITION")
		}
		s.Action = a
	default:
		p.reset(m)
		return nil
	}
	return s
}

// parseHiveCreateTable reads TABLE [IF NOT EXISTS] name (col type [COMMENT
// 'c'], ...) [COMMENT 'c'] [PARTITIONED BY (col type [COMMENT 'c'], ...)]
// [ROW FORMAT ...] [STORED AS ...] [LOCATION 'path'] [TBLPROPERTIES (...)].
func (p *Parser) parseHiveCreateTable(start ast.Pos, temporary, external bool) ast.Statement {
	p.expectKeyword("TABLE")
	s := &ast.CreateTable{Pos: start, Temporary: temporary}
	s.IfNotExists = p.ifNotExists()
	s.Name = p.compoundIdent()
	opts := []*ast.Property{{Pos: start, Key: HiveOptConnector, Value: "hive"}}
	add := func(pos ast.Pos, k, v string) { opts = append(opts, &ast.Property{Pos: pos, Key: k, Value: v}) }
	if external {
		add(start, HiveOptExternal, "true")
	}
	if p.acceptOp("(") {
		s.HasElements = true
		s.Columns = append(s.Columns, p.parseHiveColumns()...)
	}
	s.Comment = p.optComment()
	if p.acceptKeyword("PARTITIONED") {
		p.expectKeyword("BY")
		p.expectOp("(")
		parts := p.parseHiveColumns()
		for _, c := range parts {
			s.PartitionBy = append(s.PartitionBy, c.Name)
		}
		s.Columns = append(s.Columns, parts...)
	}
	if t := p.tok(); p.acceptKeyword("ROW") {
		p.expectKeyword("FORMAT")
		switch {
		case p.acceptKeyword("DELIMITED"):
			p.parseHiveDelimited(t.Pos, add)
		case p.acceptKeyword("SERDE"):
			add(t.Pos, HiveOptSerdeLib, p.stringLiteral())
			if p.acceptKeyword("WITH") {
				p.expectKeyword("SERDEPROPERTIES")
				for _, pr := range p.parseProperties() {
					add(pr.Pos, HiveOptSerdeProp+pr.Key, pr.Value)
				}
			}
		default:
			p.expect(`"DELIMITED"`)
			p.expect(`"SERDE"`)
			p.fail()
		}
	}
	if t := p.tok(); p.acceptKeyword("STORED") {
		p.expectKeyword("AS")
		if p.acceptKeyword("INPUTFORMAT") {
			add(t.Pos, HiveOptInputFormat, p.stringLiteral())
			p.expectKeyword("OUTPUTFORMAT")
			add(t.Pos, HiveOptOutputFormat, p.stringLiteral())
		} else {
			add(t.Pos, HiveOptFileFormat, strings.ToUpper(p.simpleIdent().Name))
		}
	}
	if t := p.tok(); p.acceptKeyword("LOCATION") {
		add(t.Pos, HiveOptLocation, p.stringLiteral())
	}
	if p.acceptKeyword("TBLPROPERTIES") {
		opts = append(opts, p.parseProperties()...)
	}
	s.Options = opts
	return s
}

// parseHiveColumns reads col type [COMMENT 'c'], ... ) after the '('.
func (p *Parser) parseHiveColumns() []*ast.ColumnDef {
	var cols []*ast.ColumnDef
	for {
		t := p.tok()
		c := &ast.ColumnDef{Pos: t.Pos, Name: p.simpleIdent(), Kind: ast.PhysicalColumn}
		c.Type = p.parseDataType()
		c.Comment = p.optComment()
		cols = append(cols, c)
		if p.acceptOp(")") {
			return cols
		}
		p.expectOp(",")
	}
}

// parseHiveDelimited reads the clauses of ROW FORMAT DELIMITED.
func (p *Parser) parseHiveDelimited(pos ast.Pos, add func(ast.Pos, string, string)) {
	for {
		t := p.tok()
		switch {
		case p.acceptKeyword("FIELDS"):
			p.expectKeyword("TERMINATED")
			p.expectKeyword("BY")
			add(t.Pos, HiveOptSerdeProp+"field.delim", hiveUnescape(p.stringLiteral()))
			if p.acceptKeyword("ESCAPED") {
				p.expectKeyword("BY")
				add(t.Pos, HiveOptSerdeProp+"escape.delim", hiveUnescape(p.stringLiteral()))
			}
		case p.acceptKeyword("COLLECTION"):
			p.expectKeyword("ITEMS")
			p.expectKeyword("TERMINATED")
			p.expectKeyword("BY")
			add(t.Pos, HiveOptSerdeProp+"collection.delim", hiveUnescape(p.stringLiteral()))
		case p.acceptKeyword("MAP"):
			p.expectKeyword("KEYS")
			p.expectKeyword("TERMINATED")
			p.expectKeyword("BY")
			add(t.Pos, HiveOptSerdeProp+"mapkey.delim", hiveUnescape(p.stringLiteral()))
		case p.acceptKeyword("LINES"):
			p.expectKeyword("TERMINATED")
			p.expectKeyword("BY")
			add(t.Pos, HiveOptSerdeProp+"line.delim", hiveUnescape(p.stringLiteral()))
		case p.acceptKeyword("NULL"):
			p.expectKeyword("DEFINED")
			p.expectKeyword("AS")
			add(t.Pos, HiveOptSerdeProp+"serialization.null.format", hiveUnescape(p.stringLiteral()))
		default:
			return
		}
	}
}

// parseHiveCreateDatabase reads [IF NOT EXISTS] name [COMMENT 'c']
// [LOCATION 'path'] [WITH DBPROPERTIES (...)].
func (p *Parser) parseHiveCreateDatabase(start ast.Pos) ast.Statement {
	s := &ast.CreateDatabase{Pos: start, IfNotExists: p.ifNotExists(), Name: p.compoundIdent()}
	s.Comment = p.optComment()
	var opts []*ast.Property
	if t := p.tok(); p.acceptKeyword("LOCATION") {
		opts = append(opts, &ast.Property{Pos: t.Pos, Key: HiveOptDBLocation, Value: p.stringLiteral()})
	}
	if p.acceptKeyword("WITH") {
		p.expectKeyword("DBPROPERTIES")
		opts = append(opts, p.parseProperties()...)
	}
	s.Options = opts
	return s
}

// hiveUnescape reads the backslash escapes Hive allows in delimiters:
// \t, \n, \r, \\, octal \NNN and \uXXXX.
func hiveUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch d := s[i]; {
		case d == 't':
			b.WriteByte('\t')
		case d == 'n':
			b.WriteByte('\n')
		case d == 'r':
			b.WriteByte('\r')
		case d >= '0' && d <= '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 8)
			b.WriteByte(byte(n))
			i = j - 1
		case d == 'u' && i+4 < len(s):
			if n, err := strconv.ParseUint(s[i+1:i+5], 16, 32); err == nil {
				b.WriteRune(rune(n))
				i += 4
			} else {
				b.WriteByte(d)
			}
		default:
			b.WriteByte(d)
		}
	}
	return b.String()
}
