package jsonview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// cell is one character and the escape sequence it is drawn with.
type cell struct {
	r   rune
	sgr string
}

// cells flattens lines into their characters, a newline cell between lines.
func cells(lines []Line) []cell {
	var out []cell
	for i, l := range lines {
		if i > 0 {
			out = append(out, cell{'\n', ""})
		}
		for _, sp := range l {
			for _, r := range sp.Text {
				out = append(out, cell{r, sp.SGR})
			}
		}
	}
	return out
}

// TestHighlighterColoursAsColorize: chroma's tokens of a pretty JSON text get, character by
// character, the colours the one-pass colouriser gives the same JSON, white space included.
func TestHighlighterColoursAsColorize(t *testing.T) {
	h := NewHighlighter()
	seeds := append(colorizeSeeds, bigResult(3),
		`{"n":[0,-0.5,1e10,-2E-3,12345678901234567890],"b":[true,false],"z":null,"s":"a\"b\\c\u00e9\ud83c\udf89","k\"ey":{"":[]}}`,
		`{"esc":"\u001b[2J","bidi":"\u202e","nl":"a\nb","tab":"\t"}`)
	for _, in := range seeds {
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, bytes.TrimSpace([]byte(in)), "", "  "); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		fast := cells(Colorize(testPalette, []byte(in), Options{Indent: true}).Lines)
		slow := cells(h.Lines(testPalette, pretty.String()))
		if len(fast) != len(slow) {
			t.Errorf("%s: %d characters from the colouriser, %d from chroma", in, len(fast), len(slow))
			continue
		}
		for i := range fast {
			if fast[i] != slow[i] {
				t.Errorf("%s: character %d %q: colouriser %q, chroma %q", in, i, fast[i].r, fast[i].sgr, slow[i].sgr)
				break
			}
		}
	}
}

// TestPaletteToken maps every token type chroma's JSON lexer produces to a class.
func TestPaletteToken(t *testing.T) {
	p := testPalette
	h := NewHighlighter()
	got := map[string]string{}
	for _, l := range h.Lines(p, `{"k": "v", "n": 1.5, "i": 2, "t": true, "f": false, "z": null}`) {
		for _, sp := range l {
			got[sp.Text] = sp.SGR
		}
	}
	for text, want := range map[string]string{`"k"`: p.Key, `"v"`: p.String, "1.5": p.Number, "2": p.Number,
		"true": p.Bool, "false": p.Bool, "null": p.Null, "{": p.Punct} {
		if got[text] != want {
			t.Errorf("%s: %q, want %q (%s)", text, got[text], want, fmt.Sprint(got))
		}
	}
}
