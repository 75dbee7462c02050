package explorer

import (
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// A result the explorer shows can be megabytes: a 20 MB file read by a tool, a 4 MB HTML
// page. As in the detail pane, no work proportional to it runs in Update or View. A result
// up to ResultInline bytes is laid out where it is shown; a larger one is laid out by a
// command (renderResultCmd, asked by RenderCmd after every message) while the pane shows
// the first resultPreviewBytes of the result as received, coloured by jsonview's one-pass
// colorizer as the detail pane's bounded body is. A layout shows at most resultShownBytes of the result's texts and JSON
// and says how much more there is: the whole response is in the timeline, where the
// pager, editor and save read it back.
const (
	// ResultInline is the largest result laid out in Update or View.
	ResultInline = 64 << 10
	// resultShownBytes is the most bytes of texts and JSON one layout of a result shows.
	resultShownBytes = 1 << 20
	// resultPreviewBytes is how much of a larger result's head is shown as received until
	// its layout arrives.
	resultPreviewBytes = 16 << 10
)

// resultPreviewLimit bounds the preview's pretty lines as the detail pane bounds a body:
// 16 KiB of a one-line array can indent to thousands of lines.
var resultPreviewLimit = jsonview.Limit{Lines: 2000}

// runLayouts is what a run keeps besides its layout (callRun.view): the layout before it,
// for a return to that width (the full view and back), the layout a command is making,
// the preview shown meanwhile, and whether the result was let go (explorer_hold.go).
type runLayouts struct {
	other      *ResultView
	otherKey   resultKey
	rendering  resultKey
	preview    []string
	previewKey resultKey

	released     bool
	releasedSize int64
}

// resultKey names one layout of a run's result: a width and a palette.
type resultKey struct {
	w int
	s *Styles
}

// resultRenderedMsg carries a result laid out by a command for one run, width and palette.
type resultRenderedMsg struct {
	gen, run int
	key      resultKey
	view     ResultView
}

func (resultRenderedMsg) explorerMsg() {}

// renderResultCmd lays out a run's result off the UI loop.
func renderResultCmd(gen, run int, key resultKey, k *KeyMap, method, tool string, result json.RawMessage, env ResultEnv) tea.Cmd {
	return func() tea.Msg {
		return resultRenderedMsg{gen: gen, run: run, key: key, view: RenderResult(key.s, k, method, tool, result, env, key.w)}
	}
}

// runEnv is what laying out r's result needs: the explorer's, at the revision r ran in.
func (x *Explorer) runEnv(r *callRun) ResultEnv {
	env := x.ResultEnv()
	if r.rev != "" {
		env.Revision = r.rev
	}
	if r.resp != nil && r.resp.Event != nil && r.resp.Event.Frame != nil {
		for _, f := range r.resp.Event.Frame.Findings {
			env.Findings = append(env.Findings, f.Message)
		}
	}
	return env
}

// hasResult reports whether r ended with a result to lay out.
func hasResult(r *callRun) bool {
	return r != nil && r.done && r.err == nil && r.resp != nil
}

// RenderCmd asks for the layout the selected run's result needs at the detail's current
// width and palette, unless it is there or on its way. The model calls it after every
// message, so a resize, a zoom or a new palette is followed by the layout it needs.
func (x *Explorer) RenderCmd() tea.Cmd {
	r := x.selectedRun()
	if !hasResult(r) || len(r.resp.Result) <= ResultInline {
		return nil
	}
	key := resultKey{x.layout().Detail.W, x.c.Styles}
	if key.w <= 0 || r.rendering == key || (r.view != nil && r.viewW == key.w && r.viewS == key.s) || (r.other != nil && r.otherKey == key) {
		return nil
	}
	r.rendering = key
	return renderResultCmd(r.gen, r.id, key, x.c.Keys, r.method, r.tool, r.resp.Result, x.runEnv(r))
}

// rendered takes in a layout made by a command; one for a run since replaced is dropped.
// The pane scrolled to the end of the preview goes to the end of the layout.
func (x *Explorer) rendered(msg resultRenderedMsg) {
	if msg.gen != x.gen {
		return
	}
	for _, r := range x.runs {
		if r.id != msg.run || !hasResult(r) {
			continue
		}
		if r.rendering == msg.key {
			r.rendering = resultKey{}
		}
		l := x.layout()
		atEnd := x.selectedRun() == r && x.dOff > 0 && x.dOff >= len(x.detailLines(l.Detail.W))-l.Detail.H
		x.keepView(r, msg.view, msg.key)
		if atEnd { // G on the preview: the end of the layout
			x.dOff = 1 << 30
		}
		x.clampDetail()
		return
	}
}

// keepView makes v the layout of r's result, with a last line that says where the rest is
// when it was cut.
func (x *Explorer) keepView(r *callRun, v ResultView, key resultKey) {
	if v.hidden > 0 {
		v.lines = append(v.lines, textfmt.WrapProse(key.s.Muted, fmt.Sprintf("%s of the result not shown: %s shows the whole response in the timeline (pager, editor, save)",
			textfmt.Bytes(v.hidden), x.c.Keys.ShowCall.Help().Key), " ", key.w)...)
	}
	if r.view != nil { // the width it leaves, kept for a return
		r.other, r.otherKey = r.view, resultKey{r.viewW, r.viewS}
	}
	r.view, r.viewW, r.viewS = &v, key.w, key.s
	r.preview = nil
}

// resultLines is a finished run's result at width w: its layout, or, while a command
// makes it, the head of the result as received.
//
// Bounded: RenderResult runs here only on a result of at most ResultInline bytes.
func (x *Explorer) resultLines(r *callRun, w int) []string {
	key := resultKey{w, x.c.Styles}
	if r.view != nil && r.viewW == w && r.viewS == key.s {
		return r.view.lines
	}
	if r.other != nil && r.otherKey == key {
		return r.other.lines
	}
	if r.released {
		return releasedLines(key.s, x.c.Keys, r, w)
	}
	raw := r.resp.Result
	if len(raw) <= ResultInline {
		x.keepView(r, RenderResult(key.s, x.c.Keys, r.method, r.tool, raw, x.runEnv(r), w), key)
		return r.view.lines
	}
	if r.preview == nil || r.previewKey != key {
		r.preview, r.previewKey = previewLines(key.s, raw, w), key
	}
	return r.preview
}

// previewLines is what stands for a large result until its layout arrives: a line that says
// so, and the result's first resultPreviewBytes as received.
func previewLines(s *Styles, raw json.RawMessage, w int) []string {
	head := raw[:cutUTF8([]byte(raw), resultPreviewBytes)]
	r := jsonview.Colorize(s.JSON(), head, jsonview.Options{Indent: true, Limit: resultPreviewLimit})
	lines := jsonview.Wrap(r.Lines, max(8, w-1))
	out := make([]string, 0, len(lines)+2)
	out = append(out, " "+s.Accent.Render(fmt.Sprintf("laying out %s of result…", textfmt.Bytes(int64(len(raw)))))+
		s.Muted.Render(fmt.Sprintf(" the first %s as received:", textfmt.Bytes(int64(len(head))))))
	for _, l := range lines {
		out = append(out, " "+l)
	}
	return append(out, " "+s.Muted.Render("…"))
}

// take is how many bytes of text the budget lets the result show, at the end of a line
// when one ends in the second half of what fits; it spends them.
func (r *resultRenderer) take(text string) int {
	n := len(text)
	if n > r.left {
		n = cutUTF8(text, max(0, r.left))
		if i := strings.LastIndexByte(text[:n], '\n'); i >= n/2 {
			n = i + 1
		}
	}
	r.left -= n
	return n
}

// more says that n bytes of a text or JSON value are past the budget.
func (r *resultRenderer) more(n int, pad string) {
	if n <= 0 {
		return
	}
	r.out.hidden += int64(n)
	r.add(pad + r.s.Muted.Render("… "+textfmt.Bytes(int64(n))+" more"))
}
