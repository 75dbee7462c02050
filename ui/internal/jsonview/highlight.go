package jsonview

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
)

// Highlighter colours JSON with chroma's JSON lexer, in the colours of a Palette. The
// lexer is built once, on first use (lexer.go); a Highlighter is safe for concurrent use.
// It is about 500 times slower than Colorize, so the interactive view calls it only from
// commands, off the UI loop.
type Highlighter struct{}

// NewHighlighter returns a highlighter; the JSON lexer is built when it first tokenises.
func NewHighlighter() *Highlighter { return &Highlighter{} }

// Token is the highlighter's style: the escape sequence of a chroma token of type t with
// text v, from the palette's classes, so a highlighted text has the colours Colorize gives
// it. chroma's JSON lexer calls true, false and null alike a constant; v tells them apart.
func (p *Palette) Token(t chroma.TokenType, v string) string {
	switch {
	case t == chroma.NameTag:
		return p.Key
	case t == chroma.KeywordConstant && v == "null":
		return p.Null
	case t == chroma.KeywordConstant:
		return p.Bool
	case t.InSubCategory(chroma.LiteralString):
		return p.String
	case t.InSubCategory(chroma.LiteralNumber):
		return p.Number
	case t == chroma.Punctuation:
		return p.Punct
	case t == chroma.Error, t.InCategory(chroma.Comment):
		return p.Escape // not JSON: what Colorize shows escaped
	}
	return "" // white space
}

// Lines tokenises text and returns it as logical lines in p's colours.
func (h *Highlighter) Lines(p *Palette, text string) []Line {
	it, err := jsonLexer().Tokenise(nil, text)
	if err != nil {
		return Plain([]byte(text), "", p.Escape)
	}
	var out []Line
	var cur Line
	for t := it(); t != chroma.EOF; t = it() {
		sgr := p.Token(t.Type, t.Value)
		v := t.Value
		for {
			i := strings.IndexByte(v, '\n')
			if i < 0 {
				cur = AppendEscaped(cur, v, sgr, p.Escape)
				break
			}
			cur = AppendEscaped(cur, v[:i], sgr, p.Escape)
			out = append(out, cur)
			cur, v = nil, v[i+1:]
		}
	}
	return append(out, cur)
}
