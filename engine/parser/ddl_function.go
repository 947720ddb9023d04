package parser

import "eddy/engine/ast"

// parseCreateFunction reads the rest of CREATE [TEMPORARY [SYSTEM]] FUNCTION
// [IF NOT EXISTS] name AS 'class' [LANGUAGE l] [USING JAR 'p' [, JAR 'q']*].
// A system function takes a one-part name.
func (p *Parser) parseCreateFunction(start ast.Pos, temporary, system bool) ast.Statement {
	s := &ast.CreateFunction{Pos: start, Temporary: temporary, System: system, IfNotExists: p.ifNotExists()}
	if system {
		s.Name = &ast.ObjectName{Parts: []*ast.Ident{p.simpleIdent()}}
	} else {
		s.Name = p.compoundIdent()
	}
	p.expectKeyword("AS")
	s.ClassName = p.stringLiteral()
	langTok := p.peek(1)
	s.Language = p.optLanguage()
	if p.tok().Is("USING") && (s.Language == "SQL" || s.Language == "PYTHON") {
		// Flink's createFunctionUsingJar.
		p.errorf(langTok.Pos, "CREATE FUNCTION USING JAR syntax is not applicable to %s language.", s.Language)
	}
	if p.acceptKeyword("USING") {
		for {
			p.expectKeyword("JAR")
			s.Jars = append(s.Jars, p.stringLiteral())
			if !p.acceptOp(",") {
				break
			}
		}
	}
	return s
}

// parseAlterFunction reads the rest of ALTER [TEMPORARY [SYSTEM]] FUNCTION
// [IF EXISTS] name AS 'class' [LANGUAGE l].
func (p *Parser) parseAlterFunction(start ast.Pos, temporary, system bool) ast.Statement {
	s := &ast.AlterFunction{Pos: start, Temporary: temporary, System: system, IfExists: p.ifExists(), Name: p.compoundIdent()}
	p.expectKeyword("AS")
	s.ClassName = p.stringLiteral()
	s.Language = p.optLanguage()
	return s
}

// optLanguage reads [LANGUAGE JAVA|SCALA|SQL|PYTHON].
func (p *Parser) optLanguage() string {
	if !p.acceptKeyword("LANGUAGE") {
		return ""
	}
	for _, l := range []string{"JAVA", "SCALA", "SQL", "PYTHON"} {
		if p.acceptKeyword(l) {
			return l
		}
	}
	p.fail()
	return ""
}
