package jsonview

import (
	"sync"

	"github.com/alecthomas/chroma/v2"
)

// jsonLexer is chroma's JSON lexer (lexers/embedded/json.xml of chroma v2.27) written out
// as rules, so mcpscope links chroma's lexer engine alone. Importing chroma's lexers
// package registers its several hundred lexers when the program starts, about 5 ms and
// 2.7 MB of allocations that every command paid; this lexer is built the first time the
// detail pane highlights a body. The states and patterns are chroma's, so the tokens (and
// the colours Palette.Token gives them) are the ones the registry's JSON lexer makes.
var jsonLexer = sync.OnceValue(func() chroma.Lexer {
	return chroma.Coalesce(chroma.MustNewLexer(&chroma.Config{
		Name:         "JSON",
		Aliases:      []string{"json"},
		MimeTypes:    []string{"application/json"},
		DotAll:       true,
		NotMultiline: true,
	}, jsonRules))
})

const jsonString = `"(\\\\|\\"|[^"])*"`

func jsonRules() chroma.Rules {
	return chroma.Rules{
		"root":       {chroma.Include("value")},
		"whitespace": {{Pattern: `\s+`, Type: chroma.Text}},
		"comment":    {{Pattern: `//.*?\n`, Type: chroma.CommentSingle}},
		"simplevalue": {
			{Pattern: `(true|false|null)\b`, Type: chroma.KeywordConstant},
			{Pattern: `-?(0|[1-9]\d*)(\.\d+[eE](\+|-)?\d+|[eE](\+|-)?\d+|\.\d+)`, Type: chroma.LiteralNumberFloat},
			{Pattern: `-?(0|[1-9]\d*)`, Type: chroma.LiteralNumberInteger},
			{Pattern: jsonString, Type: chroma.LiteralStringDouble},
		},
		"objectattribute": {
			chroma.Include("value"),
			{Pattern: `:`, Type: chroma.Punctuation},
			{Pattern: `,`, Type: chroma.Punctuation, Mutator: chroma.Pop(1)},
			{Pattern: `\}`, Type: chroma.Punctuation, Mutator: chroma.Pop(2)},
		},
		"objectvalue": {
			chroma.Include("whitespace"),
			chroma.Include("comment"),
			{Pattern: jsonString, Type: chroma.NameTag, Mutator: chroma.Push("objectattribute")},
			{Pattern: `\}`, Type: chroma.Punctuation, Mutator: chroma.Pop(1)},
		},
		"arrayvalue": {
			chroma.Include("whitespace"),
			chroma.Include("value"),
			chroma.Include("comment"),
			{Pattern: `,`, Type: chroma.Punctuation},
			{Pattern: `\]`, Type: chroma.Punctuation, Mutator: chroma.Pop(1)},
		},
		"value": {
			chroma.Include("whitespace"),
			chroma.Include("simplevalue"),
			chroma.Include("comment"),
			{Pattern: `\{`, Type: chroma.Punctuation, Mutator: chroma.Push("objectvalue")},
			{Pattern: `\[`, Type: chroma.Punctuation, Mutator: chroma.Push("arrayvalue")},
		},
	}
}
