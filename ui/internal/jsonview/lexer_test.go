package jsonview

import (
	"slices"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// TestJSONLexerIsChromas: the JSON lexer written out as rules tokenises like the one in
// chroma's registry (which only tests import), comments and broken JSON included.
func TestJSONLexerIsChromas(t *testing.T) {
	registry := chroma.Coalesce(lexers.Get("json"))
	inputs := append(slices.Clone(colorizeSeeds),
		"{\n  \"a\": [1, -2.5e+3, true, false, null],\n  // note\n  \"b\": {\"c\": \"d\\\"e\"}\n}",
		`{"unterminated": "x`, `[1,,2]}`, "nul", `{"a" 1}`, "\u00e9\t\r\n{}")
	for _, in := range inputs {
		want, err := chroma.Tokenise(registry, nil, in)
		if err != nil {
			t.Fatalf("%q: registry lexer: %v", in, err)
		}
		got, err := chroma.Tokenise(jsonLexer(), nil, in)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q:\n got %v\nwant %v", in, got, want)
		}
	}
}
