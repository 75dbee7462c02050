package textfmt

import (
	"strings"
	"testing"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

const red = "\x1b[31m"
const reset = "\x1b[m"

func TestCutAndPad(t *testing.T) {
	cases := []struct {
		name, in string
		w        int
		clip     string // Clip
		pad      string // Pad
		left     string // PadLeft
		fit      string // FitRow
	}{
		{"fits", "abc", 5, "abc", "abc  ", "  abc", "abc  "},
		{"exact", "abcde", 5, "abcde", "abcde", "abcde", "abcde"},
		{"too wide", "abcdefg", 5, "abcd…", "abcdefg", "abcdefg", "abcde"},
		{"zero width", "abc", 0, "", "abc", "abc", ""},
		{"empty", "", 3, "", "   ", "   ", "   "},
		{"negative width", "ab", -2, "", "ab", "ab", ""},
		// A wide rune takes two cells; one that does not fit is not split.
		{"wide runes", "日本語", 4, "日…", "日本語", "日本語", "日本"},
		{"wide rune at an odd edge", "a日本", 4, "a日…", "a日本", "a日本", "a日 "},
		{"wide runes padded", "日本", 6, "日本", "日本  ", "  日本", "日本  "},
		// Styles take no cells.
		{"ansi", red + "abc" + reset, 5, red + "abc" + reset, red + "abc" + reset + "  ", "  " + red + "abc" + reset, red + "abc" + reset + "  "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, f := range []struct {
				name      string
				got, want string
			}{
				{"Clip", Clip(c.in, c.w), c.clip},
				{"Pad", Pad(c.in, c.w), c.pad},
				{"PadLeft", PadLeft(c.in, c.w), c.left},
				{"FitRow", FitRow(c.in, c.w), c.fit},
			} {
				if f.got != f.want {
					t.Errorf("%s(%q, %d) = %q, want %q", f.name, c.in, c.w, f.got, f.want)
				}
			}
			if w := ansi.StringWidth(FitRow(c.in, c.w)); w != max(0, c.w) {
				t.Errorf("FitRow is %d cells, want %d", w, max(0, c.w))
			}
		})
	}
	// A cut styled line keeps its style up to the cut.
	if got := ansi.Strip(FitRow(red+"abcdef"+reset, 3)); got != "abc" {
		t.Errorf("FitRow of a styled line: %q", got)
	}
}

func TestFitBlock(t *testing.T) {
	cases := []struct {
		in   string
		w, h int
		want string
	}{
		{"a\nb", 2, 3, "a \nb \n  "},
		{"a\nb\nc", 1, 2, "a\nb"},
		{"日本語\n" + red + "x" + reset, 3, 2, "日 \n" + red + "x" + reset + "  "},
		{"abc", 0, 1, ""},
		{"abc", 2, 0, ""},
	}
	for _, c := range cases {
		if got := FitBlock(c.in, c.w, c.h); got != c.want {
			t.Errorf("FitBlock(%q, %d, %d) = %q, want %q", c.in, c.w, c.h, got, c.want)
		}
	}
}

func TestWrapProse(t *testing.T) {
	st := lipgloss.NewStyle()
	got := WrapProse(st, "the quick brown fox jumps\n\nover 日本語の文章 too\n", "> ", 12)
	want := []string{"> the quick", "> brown fox", "> jumps", "", "> over", "> 日本語の文", "> 章 too"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("WrapProse = %q, want %q", got, want)
	}
	for _, l := range got {
		if ansi.StringWidth(l) > 12 {
			t.Errorf("line %q is %d cells, more than 12", l, ansi.StringWidth(l))
		}
	}
	// A width too small for the prefix still wraps at 8 cells.
	if got := WrapProse(st, "abcdefghij", ">>>>", 2); len(got) != 2 || got[0] != ">>>>abcdefgh" {
		t.Errorf("WrapProse at width 2: %q", got)
	}
}

func TestWords(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Plural(0, "row"), "0 rows"},
		{Plural(1, "row"), "1 row"},
		{Plural(2, "problem"), "2 problems"},
		{Duration(850 * time.Microsecond), "850µs"},
		{Duration(12500 * time.Microsecond), "12.5ms"},
		{Duration(1250 * time.Millisecond), "1.25s"},
		{Duration(182 * time.Second), "3m2s"},
		{Size(812), "812B"},
		{Size(1234), "1.2K"},
		{Size(4_500_000), "4.5M"},
		{Size(1_100_000_000), "1.1G"},
		{Bytes(812), "812 B"},
		{Bytes(18_433), "18.4 KB"},
		{Bytes(4_200_000), "4.2 MB"},
		{Bytes(3_000_000_000), "3.0 GB"},
		{ByteCount(812), "812 B"},
		{ByteCount(18_433), "18,433 B (18.4 KB)"},
		{Commas(0), "0"},
		{Commas(999), "999"},
		{Commas(1000), "1,000"},
		{Commas(-1234567), "-1,234,567"},
		{Commas(-9223372036854775808), "-9,223,372,036,854,775,808"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestHanging(t *testing.T) {
	got := Hanging(lipgloss.NewStyle(), "name: ", "the quick brown fox jumps", 16)
	want := []string{"name: the quick", "      brown fox", "      jumps"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Hanging = %q, want %q", got, want)
	}
}

func TestElapsed(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-time.Second: "0s", 999 * time.Millisecond: "0s", 65*time.Second + 900*time.Millisecond: "1m5s",
	} {
		if got := Elapsed(d); got != want {
			t.Errorf("Elapsed(%v) = %q, want %q", d, got, want)
		}
	}
}
