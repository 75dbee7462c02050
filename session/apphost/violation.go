package apphost

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
)

// A Content-Security-Policy violation in the view (or the sandbox page) is heard by the
// sandbox page (securitypolicyviolation), handed to the host page, which posts it to /csp,
// and published on the app lane as a finding (session.AppLane.CSPViolation): an app that
// fails under the policy says why in the timeline, not only in its own error text. The
// report is the page's word (the view shares the sandbox's origin and could forge one about
// itself); at most maxViolations a host are published, each report at most
// maxViolationBytes.
const (
	maxViolations     = 100
	maxViolationBytes = 8 << 10
)

// violation publishes one report of the sandbox; past maxViolations, one last note says
// the rest are not shown.
func (h *Host) violation(body []byte) {
	var r struct {
		V *struct {
			Directive, Blocked, Sample, Source string
			Line, Column                       int
		} `json:"mcpscope/csp-violation"`
	}
	if json.Unmarshal(body, &r) != nil || r.V == nil {
		return
	}
	h.mu.Lock()
	h.violations++
	n := h.violations
	h.mu.Unlock()
	switch {
	case n == maxViolations+1:
		h.lane.CSPViolation(fmt.Sprintf("%s: more CSP violations than %d: the rest are not shown", h.tool.Name, maxViolations), nil)
		return
	case n > maxViolations:
		return
	}
	v := r.V
	what := v.Blocked
	switch what {
	case "eval":
		what = "eval (eval, new Function or a string timer)"
	case "inline":
		what = "inline code"
	case "":
		what = "a resource"
	}
	text := fmt.Sprintf("%s: the policy's %s blocked %s", h.tool.Name, clip(v.Directive, 80), clip(what, 300))
	if v.Source != "" {
		text += fmt.Sprintf(" at %s:%d:%d", clip(v.Source, 300), v.Line, v.Column)
	}
	if s := strings.TrimSpace(v.Sample); s != "" {
		text += " (" + clip(s, 80) + ")"
	}
	hint := ""
	if h.cfg.CSP != CSPReference && (v.Blocked == "eval" || v.Blocked == "blob" || strings.HasPrefix(v.Directive, "worker-src")) {
		hint = "; --csp reference hosts it as the ext-apps reference host does"
	}
	h.lane.CSPViolation(text+hint, []protocol.Finding{protocol.NewFinding(protocol.FindAppCSPViolation, "%s", text)})
}
