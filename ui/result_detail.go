package ui

import (
	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/ui/explorer"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// resultSection is the "Result" section the detail pane shows above the pretty JSON of a
// tools/call, prompts/get or resources/read response: the result by content type, its
// texts and JSON up to explorer.ResultInline bytes. Other frames get none.
//
// Bounded: a frame is held whole only up to the history's TruncateOver, and the layout
// shows at most explorer.ResultInline bytes of it.
func (d *Detail) resultSection(e *traffic.Entry, w int) []string {
	f := e.Ev.Frame
	if f == nil || f.Kind != protocol.KindResult || len(f.Result) == 0 {
		return nil
	}
	method, tool := e.Ev.Corr.Method, ""
	if req := e.Pair; req != nil && req.Ev != nil && req.Ev.Frame != nil {
		if method == "" {
			method = req.Ev.Frame.Method
		}
		if method == traffic.MethodToolsCall {
			tool = traffic.RequestTarget(method, req.Ev.Frame.Params)
		}
	}
	if !traffic.RendersResult(method) {
		return nil
	}
	var env explorer.ResultEnv
	if d.results != nil {
		env = d.results()
	}
	env.Shown = explorer.ResultInline
	s := d.c.Styles
	v := explorer.RenderResult(s, d.c.Keys, method, tool, f.Result, env, w)
	out := []string{s.PaneTitle.Render("Result")}
	out = append(out, v.Lines()...)
	return append(out, "")
}
