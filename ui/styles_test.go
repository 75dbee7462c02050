package ui

import (
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/ui/internal/common"
)

// bgCovered reports the first printable character of line shown without the Selected
// background (on is the escape that turns it on), or -1.
func bgCovered(line, on string) int {
	lit := false
	for i := 0; i < len(line); {
		if strings.HasPrefix(line[i:], "\x1b[") {
			end := strings.IndexByte(line[i:], 'm')
			if end < 0 {
				return i
			}
			seq := line[i : i+end+1]
			switch {
			case seq == on:
				lit = true
			case seq == "\x1b[m" || seq == "\x1b[0m" || seq == "\x1b[49m":
				lit = false
			}
			i += end + 1
			continue
		}
		if !lit {
			return i
		}
		i++
	}
	return -1
}

// TestSelectedRowWhole checks that the selected timeline row has the Selected background
// on every cell, its coloured cells included, not only up to the first styled one.
func TestSelectedRowWhole(t *testing.T) {
	m := newTimelineModel(t, Options{}, 120, 20)
	feedEvents(m, mixedTraffic(newEvWire(), 6)...)
	pressKey(m, "down")
	on := common.NewPainter(m.c.Styles.Selected).Pre
	var row string
	for _, l := range strings.Split(m.timeline.View(), "\n") {
		if strings.Contains(l, on) {
			row = l
		}
	}
	if row == "" {
		t.Fatalf("no row is highlighted:\n%q", m.timeline.View())
	}
	if strings.Count(row, "\x1b[") < 4 {
		t.Fatalf("the selected row has no coloured cells, so the test proves nothing: %q", row)
	}
	if i := bgCovered(row, on); i >= 0 {
		t.Errorf("the highlight stops at byte %d of the selected row: %q", i, row)
	}
}

// luminance is a colour's relative luminance (WCAG 2).
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		x := float64(v) / 0xffff
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// contrast is the WCAG contrast ratio of two colours.
func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// TestFooterHintContrast checks that the footer's key hints use the Styles' own colours and
// that they are readable (WCAG AA, 4.5:1) on a dark and on a light terminal; bubbles' default
// is grey 239 on dark.
func TestFooterHintContrast(t *testing.T) {
	for _, c := range []struct {
		dark bool
		bg   color.Color
	}{{true, color.RGBA{0x1c, 0x1c, 0x1c, 0xff}}, {false, color.White}} {
		s := NewStyles(c.dark)
		for name, st := range map[string]color.Color{"key": s.Footer.ShortKey.GetForeground(), "description": s.Footer.ShortDesc.GetForeground()} {
			if r := contrast(st, c.bg); r < 4.5 {
				t.Errorf("dark %v: footer %s contrast %.2f:1, want at least 4.5:1", c.dark, name, r)
			}
		}
	}
	m := newTimelineModel(t, Options{}, 120, 20)
	desc := m.c.Styles.Footer.ShortDesc.Render("x")
	on, _, _ := strings.Cut(desc, "x")
	if f := m.footer(); !strings.Contains(f, on) || strings.Contains(f, "38;2;74;74;74") {
		t.Errorf("the footer does not use the Styles' hint colour: %q", f)
	}
}
