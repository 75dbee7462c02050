package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/explorer"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

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
	h, p, raw := jsonview.NewHighlighter(), NewStyles(true).JSON(), payload1KB()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		pretty, _ := prettyJSON(raw)
		_ = jsonview.String(h.Lines(p, string(pretty)))
	}
}

// styledRun is a stretch of text drawn with one escape sequence.
type styledRun struct{ text, sgr string }

// styledRuns reads drawn lines back as runs of text that share an escape sequence, so two
// drawings compare by what they look like, not by how their sequences were cut.
func styledRuns(lines []string) []styledRun {
	var out []styledRun
	var text strings.Builder
	sgr, runSGR := "", ""
	add := func(s string) {
		if sgr != runSGR && text.Len() > 0 {
			out = append(out, styledRun{text.String(), runSGR})
			text.Reset()
		}
		runSGR = sgr
		text.WriteString(s)
	}
	for i, l := range lines {
		if i > 0 {
			add("\n")
		}
		for l != "" {
			if strings.HasPrefix(l, "\x1b[") {
				end := strings.IndexByte(l, 'm')
				if seq := l[:end+1]; seq == "\x1b[m" || seq == "\x1b[0m" {
					sgr = ""
				} else {
					sgr = seq
				}
				l = l[end+1:]
				continue
			}
			n := strings.IndexByte(l, '\x1b')
			if n < 0 {
				n = len(l)
			}
			add(l[:n])
			l = l[n:]
		}
	}
	if text.Len() > 0 {
		out = append(out, styledRun{text.String(), runSGR})
	}
	return out
}

// sameRuns fails the test at the first run where got and want look different.
func sameRuns(t *testing.T, what string, got, want []styledRun) {
	t.Helper()
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Errorf("%s: run %d is %q in %q, want %q in %q", what, i, got[i].text, got[i].sgr, want[i].text, want[i].sgr)
			return
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d runs, want %d", what, len(got), len(want))
	}
}

// paletteFrames are the demo's frames (testdata/demo-traffic.ndjson) and a few bodies with
// every kind of token, escapes included.
func paletteFrames(t *testing.T) []*session.Event {
	evs := []*session.Event{
		dtFrame(1, protocol.ServerToClient, `{"jsonrpc":"2.0","id":7,"result":{"n":[0,-0.5,1e10,-2E-3],"b":[true,false],"z":null,"s":"a\"b\\c\u00e9","esc":"\u001b[2J\u202e","e":{},"a":[],"k\"ey":[[{"":1}]]}}`),
		dtFrame(2, protocol.ClientToServer, `{"jsonrpc":"2.0","id":"日本","method":"tools/call","params":{"name":"絵文字🎉","arguments":{"s":"`+strings.Repeat("x", 300)+`"}}}`),
	}
	for _, ev := range goldenTraffic(t) {
		if ev.Kind == session.EvFrame && frameIsJSON(ev.Frame) {
			evs = append(evs, ev)
		}
	}
	return evs
}

// TestOnePalette: JSON has one colouring. The detail pane draws a body first with the
// one-pass colouriser and then with chroma's highlighting; the two drawings look the same,
// run for run, in the dark and the light palette. The explorer draws the same JSON in the
// same colours (the replay report's test checks its own).
func TestOnePalette(t *testing.T) {
	for _, dark := range []bool{true, false} {
		s := NewStyles(dark)
		for _, ev := range paletteFrames(t) {
			e, _ := traffic.NewHistory(0).Add(1, ev)
			c := NewCommon(nil)
			c.Styles = s
			d := NewDetail(c)
			d.SetSize(120, 200)
			cmd := d.SetEntry(e)
			before := d.View()
			dtDrain(d, cmd)
			v, ok := d.cache.get(hlKey{e, 120, dark})
			if !ok || !v.chroma {
				t.Fatalf("frame %d (dark %v): not highlighted", ev.Seq, dark)
			}
			what := fmt.Sprintf("frame %d, dark %v", ev.Seq, dark)
			sameRuns(t, what+": highlighted pane", styledRuns(strings.Split(d.View(), "\n")), styledRuns(strings.Split(before, "\n")))

			raw := ev.Frame.Raw
			fast := styledRuns(fastBody(s.JSON(), raw, 1000).lines)
			sameRuns(t, what+": explorer", styledRuns(explorer.StyledJSONLines(s, raw, "", 1000)), fast)
		}
	}
	dk, lt := NewStyles(true).JSON(), NewStyles(false).JSON()
	if *dk == *lt || dk.Key == "" || dk.Key == dk.String {
		t.Errorf("the palettes do not tell the classes and the flavours apart: dark %+v, light %+v", dk, lt)
	}
}
