package jsonview

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// testPalette draws each class in its own colour, as the views' palettes do.
var testPalette = &Palette{Key: "\x1b[34m", String: "\x1b[32m", Number: "\x1b[33m", Bool: "\x1b[35m",
	Null: "\x1b[90m", Punct: "\x1b[37m", Escape: "\x1b[31m"}

var colorizeSeeds = []string{
	`{}`, `[]`, `[ ]`, `{ }`, `null`, `"s"`, `-1.5e+3`, `true`,
	`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object","properties":{}}}]}}`,
	` {"a" : [ 1 , {"b":[ ]} , "x\"y\\" , false , null ] }  `,
	`[[[[]]],{"":{}}]`,
	`{"emoji":"🎉 日本語","esc":"\u001b[31m","ls":"\u2028"}`,
}

// bigResult is a response whose pretty form has about n+6 lines.
func bigResult(n int) string {
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":1,"result":{"items":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"item"`)
	}
	b.WriteString(`]}}`)
	return b.String()
}

func colorize(src string, indent bool) string {
	return String(Colorize(testPalette, []byte(src), Options{Indent: indent}).Lines)
}

func TestColorizeMatchesIndent(t *testing.T) {
	for _, in := range colorizeSeeds {
		var want bytes.Buffer
		if err := json.Indent(&want, bytes.TrimSpace([]byte(in)), "", "  "); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got := ansi.Strip(colorize(in, true)); got != want.String() {
			t.Errorf("indent %s\n got %q\nwant %q", in, got, want.String())
		}
		want.Reset()
		_ = json.Compact(&want, []byte(in))
		if got := ansi.Strip(colorize(in, false)); got != want.String() {
			t.Errorf("compact %s\n got %q\nwant %q", in, got, want.String())
		}
	}
}

func TestColorizeClasses(t *testing.T) {
	p := testPalette
	lines := Colorize(p, []byte(`{"k":"v","n":1,"b":true,"z":null,"bad":nope}`), Options{}).Lines
	got := map[string]string{}
	for _, sp := range lines[0] {
		got[sp.Text] = sp.SGR
	}
	want := map[string]string{`"k"`: p.Key, `"v"`: p.String, "1": p.Number, "true": p.Bool, "null": p.Null, "{": p.Punct, "nope": p.Escape}
	for text, sgr := range want {
		if got[text] != sgr || sgr == "" {
			t.Errorf("%s drawn with %q, want %q", text, got[text], sgr)
		}
	}
}

func TestColorizeInvalidNeverPanics(t *testing.T) {
	for _, in := range []string{"", "{", "}}}]]", `{"a":`, `"unterminated`, "\xff\xfe", "ab\x00cd", `{"a"::,,1}`, "[\n\x1b[2J"} {
		for _, o := range []Options{{Indent: true}, {Indent: true, Pointers: true}} {
			r := Colorize(testPalette, []byte(in), o)
			out := String(r.Lines)
			if strings.IndexByte(out, 0x00) >= 0 || strings.IndexByte(out, 0xff) >= 0 || strings.IndexByte(out, 0xfe) >= 0 || strings.Contains(out, "\x1b[2J") {
				t.Errorf("%q: raw bytes in %q", in, out)
			}
			if o.Pointers && len(r.Pointers) != len(r.Lines) {
				t.Errorf("%q: %d pointers for %d lines", in, len(r.Pointers), len(r.Lines))
			}
		}
	}
}

func TestColorizeLimits(t *testing.T) {
	r := Colorize(testPalette, []byte(bigResult(100)), Options{Indent: true, Limit: Limit{Lines: 10}})
	if !r.Cut || len(r.Lines) != 10 {
		t.Fatalf("line limit: %d lines, cut %v", len(r.Lines), r.Cut)
	}
	long := `{"s":"` + strings.Repeat("é", 1000) + `"}`
	r = Colorize(testPalette, []byte(long), Options{Indent: true, Limit: Limit{Bytes: 101}})
	n := 0
	for _, l := range r.Lines {
		for _, sp := range l {
			n += len(sp.Text)
			if !utf8.ValidString(sp.Text) {
				t.Fatalf("cut inside a character: %q", sp.Text)
			}
		}
	}
	if !r.Cut || n > 101 || r.Bytes != n {
		t.Fatalf("byte limit: %d bytes (reported %d), cut %v", n, r.Bytes, r.Cut)
	}
}

// TestColorizePointers names each line's JSON pointer: members, elements, escapes, empty
// containers; and Pretty shows text that is not JSON as it is, every line at "".
func TestColorizePointers(t *testing.T) {
	r := Pretty(testPalette, []byte(`{"a/b":[1,{"c~":"<x>","d\/e":2}],"e":{},"f":[],"g":[[true],null]}`), Options{Pointers: true})
	want := []struct{ text, ptr string }{
		{`{`, ``},
		{`  "a/b": [`, `/a~1b`},
		{`    1,`, `/a~1b/0`},
		{`    {`, `/a~1b/1`},
		{`      "c~": "<x>",`, `/a~1b/1/c~0`},
		{`      "d\/e": 2`, `/a~1b/1/d~1e`},
		{`    }`, `/a~1b/1`},
		{`  ],`, `/a~1b`},
		{`  "e": {},`, `/e`},
		{`  "f": [],`, `/f`},
		{`  "g": [`, `/g`},
		{`    [`, `/g/0`},
		{`      true`, `/g/0/0`},
		{`    ],`, `/g/0`},
		{`    null`, `/g/1`},
		{`  ]`, `/g`},
		{`}`, ``},
	}
	if len(r.Lines) != len(want) || len(r.Pointers) != len(want) {
		t.Fatalf("got %d lines and %d pointers, want %d: %q", len(r.Lines), len(r.Pointers), len(want), String(r.Lines))
	}
	for i, w := range want {
		if got := ansi.Strip(String(r.Lines[i : i+1])); got != w.text || r.Pointers[i] != w.ptr {
			t.Errorf("line %d: got %q at %q, want %q at %q", i, got, r.Pointers[i], w.text, w.ptr)
		}
	}
	r = Pretty(testPalette, []byte("not json\nat all"), Options{Pointers: true})
	if len(r.Lines) != 2 || len(r.Pointers) != 2 || r.Pointers[0] != "" || ansi.Strip(String(r.Lines)) != "not json\nat all" {
		t.Errorf("text that is not JSON: %q at %q", String(r.Lines), r.Pointers)
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
		if got := EscapeText(in); got != want {
			t.Errorf("EscapeText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWrapWidth(t *testing.T) {
	src := []byte(`{"wide":"日本語日本語日本語","long":"` + strings.Repeat("abc ", 40) + `","n":[1,2,3]}`)
	lines := Colorize(testPalette, src, Options{Indent: true}).Lines
	var want strings.Builder
	for _, l := range lines {
		for _, sp := range l {
			want.WriteString(sp.Text)
		}
	}
	for _, w := range []int{1, 2, 3, 7, 20, 80} {
		var joined strings.Builder
		for _, l := range Wrap(lines, w) {
			if cw := ansi.StringWidth(l); cw > max(w, 2) {
				t.Fatalf("width %d: line of %d cells: %q", w, cw, ansi.Strip(l))
			}
			joined.WriteString(ansi.Strip(l))
		}
		if joined.String() != want.String() {
			t.Fatalf("width %d lost text", w)
		}
	}
	for _, w := range []int{8, 20, 80} {
		var joined strings.Builder
		for _, l := range lines {
			for i, part := range WrapIndented(l, w) {
				if cw := ansi.StringWidth(part); cw > max(w, 2) {
					t.Fatalf("indented, width %d: line of %d cells: %q", w, cw, ansi.Strip(part))
				}
				part = ansi.Strip(part)
				if i > 0 {
					part = strings.TrimLeft(part, " ")
				}
				joined.WriteString(part)
			}
		}
		if got := strings.ReplaceAll(joined.String(), " ", ""); got != strings.ReplaceAll(want.String(), " ", "") {
			t.Fatalf("indented, width %d lost text:\n%s", w, got)
		}
	}
}

func FuzzColorize(f *testing.F) {
	for _, s := range colorizeSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte("\xff{\"a\":\x1b}"))
	f.Fuzz(func(t *testing.T, in []byte) {
		out := String(Colorize(testPalette, in, Options{Indent: true}).Lines)
		if utf8.Valid(in) && json.Valid(in) {
			var want bytes.Buffer
			_ = json.Indent(&want, bytes.TrimSpace(in), "", "  ")
			if got := ansi.Strip(out); got != want.String() {
				t.Fatalf("indent\n got %q\nwant %q", got, want.String())
			}
		}
		r := Colorize(testPalette, in, Options{Indent: true, Pointers: true, Limit: Limit{Lines: 2000, Bytes: 256 << 10}})
		if len(r.Pointers) != len(r.Lines) {
			t.Fatalf("%d pointers for %d lines", len(r.Pointers), len(r.Lines))
		}
		for _, w := range []int{1, 9, 40} {
			for _, l := range Wrap(r.Lines, w) {
				if cw := ansi.StringWidth(l); cw > max(w, 2) {
					t.Fatalf("width %d: %d cells: %q", w, cw, l)
				}
			}
		}
	})
}

// TestEscapeRuneNotation pins the one notation of what a terminal must not get raw: C0 as
// \x1b, C1 and invisible or reordering characters as \u200b, beyond U+FFFF as \U000e0041;
// emoji keep their variation selectors and joiners.
func TestEscapeRuneNotation(t *testing.T) {
	tests := map[string]string{
		"\x1b]52;c;ZXZpbA==\x07read_file": `\x1b]52;c;ZXZpbA==\x07read_file`,
		"c1 \u009b31m":                    `c1 \u009b31m`,
		"zero\u200bwidth\u2060joiner":     `zero\u200bwidth\u2060joiner`,
		"bidi \u202e \u2066x\u2069":       `bidi \u202e \u2066x\u2069`,
		"tag \U000E0041\U000E007F":        `tag \U000e0041\U000e007f`,
		"vs A\uFE0F B\U000E0100":          `vs A\ufe0f B\U000e0100`,
		"soft\u00adhyphen bom\ufeff":      `soft\u00adhyphen bom\ufeff`,
		"filler \u3164 cgj a\u034f":       `filler \u3164 cgj a\u034f`,
		"lines \u2028 \u2029":             `lines \u2028 \u2029`,
		"emoji ⚠\uFE0F 1\uFE0F\u20e3 👨\u200d💻 🏳\uFE0F\u200d🌈": "emoji ⚠\uFE0F 1\uFE0F\u20e3 👨\u200d💻 🏳\uFE0F\u200d🌈",
		"lone a\u200db": `lone a\u200db`,
		"é 中 ñ":         "é 中 ñ",
	}
	for in, want := range tests {
		if got := EscapeText(in); got != want {
			t.Errorf("EscapeText(%q) = %q, want %q", in, got, want)
		}
		if NeedsEscape(in) != (want != in) {
			t.Errorf("NeedsEscape(%q) = %v", in, !(want != in))
		}
	}
}

// TestEscapeJSON writes what a terminal must not get raw as JSON escapes: the value is the
// same, every escaped character is gone from the bytes.
func TestEscapeJSON(t *testing.T) {
	in := []byte("{\n  \"name\": \"\\u001b]52;c;eA==\\u0007read\u200bfile\u202e\U000E0041\u009b\",\n\t\"ok\": \"é ⚠\uFE0F\"\r\n}")
	got := EscapeJSON(in)
	want := "{\n  \"name\": \"\\u001b]52;c;eA==\\u0007read\\u200bfile\\u202e\\udb40\\udc41\\u009b\",\n\t\"ok\": \"é ⚠\uFE0F\"\r\n}"
	if string(got) != want {
		t.Errorf("EscapeJSON =\n%s\nwant\n%s", got, want)
	}
	var a, b any
	if err := json.Unmarshal(in, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &b); err != nil || !reflect.DeepEqual(a, b) {
		t.Errorf("EscapeJSON changed the value: %v, %v / %v", err, a, b)
	}
	if plain := []byte(`{"a":"b"}`); &EscapeJSON(plain)[0] != &plain[0] {
		t.Errorf("EscapeJSON copied text that needs no escape")
	}
}

// BenchmarkVisible measures the escaping of a row's text: plain ASCII (the common case,
// returned as it is), text in another script, and text holding escapes.
func BenchmarkVisible(b *testing.B) {
	for _, bc := range []struct{ name, s string }{
		{"ascii", strings.Repeat("tools/call read_file ", 4)},
		{"cjk", strings.Repeat("ファイルを読む ", 8)},
		{"escapes", strings.Repeat("\x1b]52;c;ZXZpbA==\x07read\u200bfile ", 3)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = Visible(bc.s)
			}
		})
	}
}

// TestMayHide: the quick test never skips a character hides would escape.
func TestMayHide(t *testing.T) {
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if hides(r) && !mayHide(r) {
			t.Errorf("mayHide(%U) is false, but it hides", r)
		}
	}
}

func TestVisibleLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain é 中":        "plain é 中",
		"a\tb\r\nc":        "a b  c",
		"wipe\x1b[2J next": "wipe" + MarkOn + `\x1b` + MarkOff + "[2J next",
	} {
		if got := VisibleLine(in); got != want {
			t.Errorf("VisibleLine(%q) = %q, want %q", in, got, want)
		}
	}
}
