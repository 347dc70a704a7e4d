package topologies

import (
	"strconv"
	"strings"
)

// dotToken is one token of a dot file.
type dotToken struct {
	// text is the identifier (unquoted, escapes resolved) or the
	// punctuation ("{", "}", "[", "]", ";", ",", "=", ":", "->", "--");
	// empty at the end of the file.
	text   string
	id     bool // an identifier: bare word, numeral or quoted string
	quoted bool // a quoted string (never a keyword)
	line   int
}

// keyword reports whether t is the unquoted keyword kw (case-insensitive).
func (t dotToken) keyword(kw string) bool {
	return t.id && !t.quoted && strings.EqualFold(t.text, kw)
}

// describe names t in an error message.
func (t dotToken) describe() string {
	switch {
	case t.text == "" && !t.id:
		return "end of file"
	case t.quoted:
		return strconv.Quote(t.text)
	default:
		return "'" + t.text + "'"
	}
}

// dotLexer splits a dot file into tokens, tracking line numbers.
type dotLexer struct {
	file string
	src  string
	pos  int
	line int
	// bol is set while only blanks precede pos on its line, where '#'
	// starts a preprocessor line that dot discards.
	bol bool
}

// next returns the next token, or an error naming the line.
func (l *dotLexer) next() (dotToken, error) {
	if err := l.skip(); err != nil {
		return dotToken{}, err
	}
	if l.pos >= len(l.src) {
		return dotToken{line: l.line}, nil
	}
	l.bol = false
	c, line := l.src[l.pos], l.line
	switch {
	case c == '"':
		return l.quoted()
	case c == '-' && l.pos+1 < len(l.src) && (l.src[l.pos+1] == '>' || l.src[l.pos+1] == '-'):
		l.pos += 2
		return dotToken{text: l.src[l.pos-2 : l.pos], line: line}, nil
	case strings.IndexByte("{}[];,=:", c) >= 0:
		l.pos++
		return dotToken{text: string(c), line: line}, nil
	case c == '-' || c == '.' || isDigit(c):
		return l.numeral()
	case isIDStart(c):
		start := l.pos
		for l.pos < len(l.src) && (isIDStart(l.src[l.pos]) || isDigit(l.src[l.pos])) {
			l.pos++
		}
		return dotToken{text: l.src[start:l.pos], id: true, line: line}, nil
	case c == '<':
		return dotToken{}, FileErrorf(l.file, line, "HTML strings <...> are not supported (expected a quoted or plain name)")
	}
	return dotToken{}, FileErrorf(l.file, line, "unexpected character %q (expected a name, a quoted string, '->', or one of { } [ ] ; , =)", c)
}

// skip passes blanks, comments (// and /* */) and preprocessor lines (#).
func (l *dotLexer) skip() error {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == '\n':
			l.line++
			l.pos++
			l.bol = true
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			l.pos++
		case c == '#' && l.bol, strings.HasPrefix(l.src[l.pos:], "//"):
			end := strings.IndexByte(l.src[l.pos:], '\n')
			if end < 0 {
				l.pos = len(l.src)
			} else {
				l.pos += end
			}
		case strings.HasPrefix(l.src[l.pos:], "/*"):
			end := strings.Index(l.src[l.pos+2:], "*/")
			if end < 0 {
				return FileErrorf(l.file, l.line, "unterminated comment /* (expected */)")
			}
			l.line += strings.Count(l.src[l.pos:l.pos+2+end], "\n")
			l.pos += end + 4
		default:
			return nil
		}
	}
	return nil
}

// quoted reads a quoted string: \" stands for a quote and a backslash
// before a line break continues the line; other backslashes are kept.
func (l *dotLexer) quoted() (dotToken, error) {
	line := l.line
	l.pos++ // opening quote
	var b strings.Builder
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == '"':
			l.pos++
			return dotToken{text: b.String(), id: true, quoted: true, line: line}, nil
		case c == '\\' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '"':
			b.WriteByte('"')
			l.pos += 2
		case c == '\\' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '\n':
			l.line++
			l.pos += 2
		default:
			if c == '\n' {
				l.line++
			}
			b.WriteByte(c)
			l.pos++
		}
	}
	return dotToken{}, FileErrorf(l.file, line, "unterminated quoted string (expected a closing \")")
}

// numeral reads a dot numeral: [-]digits[.digits] or [-].digits.
func (l *dotLexer) numeral() (dotToken, error) {
	start, line := l.pos, l.line
	if l.src[l.pos] == '-' {
		l.pos++
	}
	dot, digits := false, false
	for l.pos < len(l.src) && (isDigit(l.src[l.pos]) || (l.src[l.pos] == '.' && !dot)) {
		dot = dot || l.src[l.pos] == '.'
		digits = digits || isDigit(l.src[l.pos])
		l.pos++
	}
	if !digits {
		return dotToken{}, FileErrorf(l.file, line, "malformed number %q (expected digits)", l.src[start:l.pos])
	}
	return dotToken{text: l.src[start:l.pos], id: true, line: line}, nil
}

// isDigit reports whether c is an ASCII digit.
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isIDStart reports whether c may start a bare dot identifier: a letter,
// an underscore or any byte of a non-ASCII UTF-8 sequence.
func isIDStart(c byte) bool {
	return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || c >= 0x80
}

// dotEdge is one edge statement's edge, as written.
type dotEdge struct {
	tail, head string
	line       int
	comment    string
	hasComment bool
	// commentLine is the line of the comment attribute's value, 0 when
	// the edge has none.
	commentLine int
	// srcport and dstport are the port attributes, 0 when absent.
	srcport, dstport int
}

// dotGraph is a parsed dot file: its nodes, numbered in order of first
// appearance as an edge's tail or in a node statement, and its edges.
type dotGraph struct {
	order    []string        // numbered node names
	lines    []int           // line where each numbered node first appears
	numbered map[string]bool // the names in order
	seen     map[string]int  // every node name → its line of first mention
	edges    []dotEdge
}

// number gives name the next number if it has none.
func (g *dotGraph) number(name string, line int) {
	if !g.numbered[name] {
		g.numbered[name] = true
		g.order = append(g.order, name)
		g.lines = append(g.lines, line)
	}
	if _, ok := g.seen[name]; !ok {
		g.seen[name] = line
	}
}

// dotParser parses the subset of the dot language that describes a
// network: one digraph of node and edge statements; attribute statements
// and graph attributes are accepted and ignored.
type dotParser struct {
	lex   dotLexer
	tok   dotToken // current token
	graph dotGraph
}

// parseDot parses src, the text of file.
func parseDot(file, src string) (*dotGraph, error) {
	p := &dotParser{
		lex:   dotLexer{file: file, src: src, line: 1, bol: true},
		graph: dotGraph{seen: map[string]int{}, numbered: map[string]bool{}},
	}
	if err := p.advance(); err != nil {
		return nil, err
	}
	if p.tok.keyword("strict") {
		if err := p.advance(); err != nil {
			return nil, err
		}
	}
	if p.tok.keyword("graph") {
		return nil, p.errorf("an undirected graph has no link directions (expected 'digraph')")
	}
	if !p.tok.keyword("digraph") {
		return nil, p.errorf("expected 'digraph', got %s", p.tok.describe())
	}
	if err := p.advance(); err != nil {
		return nil, err
	}
	if p.tok.id { // graph name
		if err := p.advance(); err != nil {
			return nil, err
		}
	}
	open := p.tok.line
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	for !p.punct("}") {
		if p.tok.text == "" && !p.tok.id {
			return nil, p.errorf("expected '}' to close the digraph opened on line %d, got end of file", open)
		}
		if err := p.statement(); err != nil {
			return nil, err
		}
	}
	if err := p.advance(); err != nil {
		return nil, err
	}
	if p.tok.text != "" || p.tok.id {
		return nil, p.errorf("expected end of file after the digraph's closing '}', got %s", p.tok.describe())
	}
	return &p.graph, nil
}

// statement parses one statement and its optional ';'.
func (p *dotParser) statement() error {
	t := p.tok
	switch {
	case p.punct(";"):
		return p.advance()
	case p.punct("{") || t.keyword("subgraph"):
		return p.errorf("subgraphs are not supported (expected node and edge statements)")
	case !t.id:
		return p.errorf("expected a node, an edge or an attribute statement, got %s", t.describe())
	case t.keyword("graph") || t.keyword("node") || t.keyword("edge"):
		if err := p.advance(); err != nil {
			return err
		}
		if !p.punct("[") {
			return p.errorf("expected '[' after '%s', got %s", t.text, p.tok.describe())
		}
		_, err := p.attributes()
		return err
	}
	if err := p.advance(); err != nil {
		return err
	}
	switch {
	case p.punct("="): // graph attribute
		if err := p.advance(); err != nil {
			return err
		}
		if !p.tok.id {
			return p.errorf("expected a value after '%s =', got %s", t.text, p.tok.describe())
		}
		return p.advance()
	case p.punct(":"):
		return p.errorf("node ports (%s:port) are not supported (expected '->' or '[')", strconv.Quote(t.text))
	case p.punct("--"):
		return p.errorf("undirected edge '--' (expected '->': each direction of a link is its own edge)")
	case p.punct("->"):
		return p.edges(t)
	}
	p.graph.number(t.text, t.line) // node statement
	if p.punct("[") {
		_, err := p.attributes()
		return err
	}
	return nil
}

// edges parses the rest of an edge statement whose first node is tail and
// whose current token is '->'.
func (p *dotParser) edges(tail dotToken) error {
	nodes := []dotToken{tail}
	for p.punct("->") {
		if err := p.advance(); err != nil {
			return err
		}
		if !p.tok.id || p.tok.keyword("subgraph") {
			return p.errorf("expected a node name after '->', got %s", p.tok.describe())
		}
		nodes = append(nodes, p.tok)
		if err := p.advance(); err != nil {
			return err
		}
		if p.punct(":") {
			return p.errorf("node ports (%s:port) are not supported (expected '->' or '[')", strconv.Quote(nodes[len(nodes)-1].text))
		}
		if p.punct("--") {
			return p.errorf("undirected edge '--' (expected '->': each direction of a link is its own edge)")
		}
	}
	var attr dotAttrs
	if p.punct("[") {
		var err error
		if attr, err = p.attributes(); err != nil {
			return err
		}
	}
	for i := 1; i < len(nodes); i++ {
		p.graph.number(nodes[i-1].text, nodes[i-1].line)
		if _, ok := p.graph.seen[nodes[i].text]; !ok {
			p.graph.seen[nodes[i].text] = nodes[i].line
		}
		p.graph.edges = append(p.graph.edges, dotEdge{
			tail: nodes[i-1].text, head: nodes[i].text, line: nodes[i-1].line,
			comment: attr.comment, hasComment: attr.hasComment, commentLine: attr.commentLine,
			srcport: attr.srcport, dstport: attr.dstport,
		})
	}
	return nil
}

// dotAttrs are the edge attributes netsim reads; others are ignored.
type dotAttrs struct {
	comment     string
	hasComment  bool
	commentLine int // line of the comment's value
	srcport     int
	dstport     int
}

// attributes parses one or more attribute lists [a = b, c = d; ...],
// starting at '['.
func (p *dotParser) attributes() (dotAttrs, error) {
	var a dotAttrs
	for p.punct("[") {
		if err := p.advance(); err != nil {
			return a, err
		}
		for !p.punct("]") {
			if !p.tok.id {
				return a, p.errorf("expected an attribute name or ']', got %s", p.tok.describe())
			}
			key := p.tok
			if err := p.advance(); err != nil {
				return a, err
			}
			if err := p.expect("="); err != nil {
				return a, err
			}
			if !p.tok.id {
				return a, p.errorf("expected a value for attribute %s, got %s", key.text, p.tok.describe())
			}
			val := p.tok
			switch key.text {
			case "comment":
				a.comment, a.hasComment, a.commentLine = val.text, true, val.line
			case "srcport", "dstport":
				n, err := strconv.Atoi(val.text)
				if err != nil || n < 1 || n > maxFilePort {
					return a, FileErrorf(p.lex.file, val.line, "%s: expected a port number from 1 to %d, got %s", key.text, maxFilePort, val.describe())
				}
				if key.text == "srcport" {
					a.srcport = n
				} else {
					a.dstport = n
				}
			}
			if err := p.advance(); err != nil {
				return a, err
			}
			if p.punct(",") || p.punct(";") {
				if err := p.advance(); err != nil {
					return a, err
				}
			}
		}
		if err := p.advance(); err != nil {
			return a, err
		}
	}
	return a, nil
}

// advance reads the next token.
func (p *dotParser) advance() error {
	t, err := p.lex.next()
	p.tok = t
	return err
}

// punct reports whether the current token is the punctuation s.
func (p *dotParser) punct(s string) bool { return !p.tok.id && p.tok.text == s }

// expect consumes the punctuation s or reports what came instead.
func (p *dotParser) expect(s string) error {
	if !p.punct(s) {
		return p.errorf("expected '%s', got %s", s, p.tok.describe())
	}
	return p.advance()
}

// errorf reports a problem at the current token's line.
func (p *dotParser) errorf(format string, args ...any) error {
	return FileErrorf(p.lex.file, p.tok.line, format, args...)
}
