package ui

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

var colorizeSeeds = []string{
	`{}`, `[]`, `[ ]`, `{ }`, `null`, `"s"`, `-1.5e+3`, `true`,
	`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object","properties":{}}}]}}`,
	` {"a" : [ 1 , {"b":[ ]} , "x\"y\\" , false , null ] }  `,
	`[[[[]]],{"":{}}]`,
	`{"emoji":"🎉 日本語","esc":"\u001b[31m","ls":"\u2028"}`,
}

func TestColorizeMatchesIndent(t *testing.T) {
	s := NewStyles(true)
	for _, in := range colorizeSeeds {
		var want bytes.Buffer
		if err := json.Indent(&want, bytes.TrimSpace([]byte(in)), "", "  "); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got := ansi.Strip(ColorizeJSON(s, []byte(in), true)); got != want.String() {
			t.Errorf("indent %s\n got %q\nwant %q", in, got, want.String())
		}
		want.Reset()
		_ = json.Compact(&want, []byte(in))
		if got := ansi.Strip(ColorizeJSON(s, []byte(in), false)); got != want.String() {
			t.Errorf("compact %s\n got %q\nwant %q", in, got, want.String())
		}
	}
}

func TestColorizeClasses(t *testing.T) {
	s := NewStyles(true)
	p := paletteFor(s)
	lines, _ := colorizeLines(p, []byte(`{"k":"v","n":1,"b":true,"z":null,"bad":nope}`), false, textLimit{})
	got := map[string]string{}
	for _, sp := range lines[0] {
		got[sp.text] = sp.sgr
	}
	want := map[string]string{`"k"`: p.key, `"v"`: p.str, "1": p.num, "true": p.boolean, "null": p.null, "{": p.punct, "nope": p.esc}
	for text, sgr := range want {
		if got[text] != sgr || sgr == "" {
			t.Errorf("%s drawn with %q, want %q", text, got[text], sgr)
		}
	}
}

func TestColorizeInvalidNeverPanics(t *testing.T) {
	s := NewStyles(false)
	for _, in := range []string{"", "{", "}}}]]", `{"a":`, `"unterminated`, "\xff\xfe", "ab\x00cd", `{"a"::,,1}`, "[\n\x1b[2J"} {
		out := ColorizeJSON(s, []byte(in), true)
		if strings.ContainsAny(out, "\x00\xff\xfe") || strings.Contains(out, "\x1b[2J") {
			t.Errorf("%q: raw bytes in %q", in, out)
		}
	}
}

func TestColorizeLimits(t *testing.T) {
	p := paletteFor(NewStyles(true))
	lines, cut := colorizeLines(p, []byte(bigResult(100)), true, textLimit{lines: 10})
	if !cut || len(lines) != 10 {
		t.Fatalf("line limit: %d lines, cut %v", len(lines), cut)
	}
	long := `{"s":"` + strings.Repeat("é", 1000) + `"}`
	lines, cut = colorizeLines(p, []byte(long), true, textLimit{bytes: 101})
	n := 0
	for _, l := range lines {
		for _, sp := range l {
			n += len(sp.text)
			if !utf8.ValidString(sp.text) {
				t.Fatalf("cut inside a character: %q", sp.text)
			}
		}
	}
	if !cut || n > 101 {
		t.Fatalf("byte limit: %d bytes, cut %v", n, cut)
	}
}

func TestEscapeText(t *testing.T) {
	tests := map[string]string{
		"plain":          "plain",
		"a\x1b[2Jb":      `a\x1b[2Jb`,
		"tab\there\r\n":  `tab\there\r\n`,
		"bad \xff byte":  `bad \xff byte`,
		"bidi \u202e x":  `bidi \u202e x`,
		"c1 \u0085 x":    `c1 \u0085 x`,
		"日本 🎉 ok":        "日本 🎉 ok",
		"del \x7f":       `del \x7f`,
		"cut \xe6\x97 x": `cut \xe6\x97 x`,
	}
	for in, want := range tests {
		if got := escapeText(in); got != want {
			t.Errorf("escapeText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWrapLinesWidth(t *testing.T) {
	p := paletteFor(NewStyles(true))
	src := []byte(`{"wide":"日本語日本語日本語","long":"` + strings.Repeat("abc ", 40) + `","n":[1,2,3]}`)
	lines, _ := colorizeLines(p, src, true, textLimit{})
	for _, w := range []int{1, 2, 3, 7, 20, 80} {
		var joined strings.Builder
		for _, l := range wrapLines(lines, w) {
			if cw := ansi.StringWidth(l); cw > max(w, 2) {
				t.Fatalf("width %d: line of %d cells: %q", w, cw, ansi.Strip(l))
			}
			joined.WriteString(ansi.Strip(l))
		}
		var want strings.Builder
		for _, l := range lines {
			for _, sp := range l {
				want.WriteString(sp.text)
			}
		}
		if joined.String() != want.String() {
			t.Fatalf("width %d lost text", w)
		}
	}
}

func FuzzColorize(f *testing.F) {
	for _, s := range colorizeSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte("\xff{\"a\":\x1b}"))
	s := NewStyles(true)
	p := paletteFor(s)
	f.Fuzz(func(t *testing.T, in []byte) {
		out := ColorizeJSON(s, in, true)
		if utf8.Valid(in) && json.Valid(in) {
			var want bytes.Buffer
			_ = json.Indent(&want, bytes.TrimSpace(in), "", "  ")
			if got := ansi.Strip(out); got != want.String() {
				t.Fatalf("indent\n got %q\nwant %q", got, want.String())
			}
		}
		lines, _ := colorizeLines(p, in, true, bodyLimit)
		for _, w := range []int{1, 9, 40} {
			for _, l := range wrapLines(lines, w) {
				if cw := ansi.StringWidth(l); cw > max(w, 2) {
					t.Fatalf("width %d: %d cells: %q", w, cw, l)
				}
			}
		}
	})
}

// payload1KB is a realistic 1 KB tools/list response.
func payload1KB() []byte {
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":2,"result":{"tools":[`)
	for i := 0; b.Len() < 1000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"name":"tool_` + strings.Repeat("x", i%7) + `","description":"Does a thing, with care.","inputSchema":{"type":"object","properties":{"n":{"type":"integer","minimum":0}},"required":["n"]},"readOnly":true,"cost":null}`)
	}
	b.WriteString(`]}}`)
	return []byte(b.String())
}

func BenchmarkColorize1KB(b *testing.B) {
	s, raw := NewStyles(true), payload1KB()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		_ = ColorizeJSON(s, raw, true)
	}
}

func BenchmarkChroma1KB(b *testing.B) {
	h, raw := NewHighlighter(), payload1KB()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		pretty, _ := prettyJSON(raw)
		var sb strings.Builder
		for i, l := range h.Lines(string(pretty), true, "") {
			if i > 0 {
				sb.WriteByte('\n')
			}
			writeSpans(&sb, l)
		}
		_ = sb.String()
	}
}
