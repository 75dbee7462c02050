package ui

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/secret"
	"github.com/mcpscope/mcpscope/session/transport"
	"github.com/mcpscope/mcpscope/ui/internal/common"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// Column widths of a timeline row.
const (
	colTime  = 9 // "+1234.567"
	colDir   = 1
	colKind  = 6
	colID    = 6
	colSize  = 6
	colLat   = 8
	colBadge = 4 // " ⚠12"
)

// rowText renders e as one line of exactly width cells. start is the history's first event
// time (rows show time relative to it); now drives the elapsed timer of waiting requests.
func rowText(s *Styles, e *traffic.Entry, width int, start, now time.Time) string {
	return maskedRowText(s, nil, e, width, start, now)
}

// maskedRowText is rowText with the screen's masker, which masks the secrets the command
// line named in an argument before its value is cut to a prefix (the screen's last pass
// matches only whole values); nil masks secret shapes only.
func maskedRowText(s *Styles, mask *secret.Masker, e *traffic.Entry, width int, start, now time.Time) string {
	p := s.Rows()
	if e.Marker != "" { // its rule stops a cell short, as every row's text does, before the detail
		return textfmt.FitRow(textfmt.FitRow(p.Accent.Paint("──── "+e.Marker+" "+strings.Repeat("─", max(0, width))), max(0, width-1)), width)
	}
	ev := e.Ev
	rel := p.Muted.Paint(fmt.Sprintf("%*s", colTime, relTime(ev.Time, start)))
	var dir, kind, label, id, size, lat, badge string
	switch ev.Kind {
	case session.EvFrame:
		dir, kind, label = frameColumns(s, mask, e)
		f := ev.Frame
		if !f.ID.IsZero() {
			id = "#" + f.ID.String()
		}
		size = textfmt.Size(max(int64(len(f.Raw)), ev.Recv.Size, e.Clipped))
		if editedRequest(e) && !isCutNote([]byte(e.Delivered)) {
			size = textfmt.Size(int64(len(e.Delivered))) // what the server got
		}
		lat = latencyText(s, e, now)
		if n := len(session.AllFindings(f)); n > 0 {
			badge = p.Badge.Paint(fmt.Sprintf(" ⚠%d", n))
		}
	case session.EvStderr:
		kind = p.Stderr.Paint(textfmt.FitRow("stderr", colKind))
		label = p.Stderr.Paint(cleanText(ev.Text))
	case session.EvHTTP:
		h := ev.HTTP
		kind = p.Transport.Paint(textfmt.FitRow("http", colKind))
		label = p.Transport.Paint(cleanText(httpLine(h)))
		lat = textfmt.Duration(h.Duration)
		// A refused era probe is expected, and so is metadata not found at one of the
		// locations authorization discovery tries.
		if (h.Status >= 400 || h.Err != "") && h.Purpose != "probe" && (h.Step == "" || h.Status != 404) {
			label = p.Err.Paint(cleanText(httpLine(h)))
		}
		if n := len(ev.Findings); n > 0 {
			badge = p.Badge.Paint(fmt.Sprintf(" ⚠%d", n))
		}
	case session.EvTransport:
		kind = p.Transport.Paint(textfmt.FitRow("net", colKind))
		label = p.Transport.Paint(cleanText(ev.Note + ": " + ev.Text))
		if faultNote(ev) {
			kind, label = faultRow(p, ev)
		}
		kind, label = appNoteRow(p, ev, kind, label)
		if n := len(ev.Findings); n > 0 {
			badge = p.Badge.Paint(fmt.Sprintf(" ⚠%d", n))
		}
	case session.EvExit:
		st := p.Err
		if x := ev.Exit; x != nil && (x.ByUs || x.Code == 0 && x.Signal == "") {
			st = p.Transport
		}
		kind = st.Paint(textfmt.FitRow("exit", colKind))
		label = st.Paint(cleanText(ev.Text))
	case session.EvState:
		kind = p.Muted.Paint(textfmt.FitRow("state", colKind))
		label = p.Muted.Paint(cleanText(stateLine(ev)))
	case session.EvError:
		kind = p.Err.Paint(textfmt.FitRow("ERROR", colKind))
		label = p.Err.Paint(cleanText(ev.Text))
		if ev.Corr.Probe { // the era probe failing is how a server of the earlier era is recognised
			kind = p.Muted.Paint(textfmt.FitRow("probe", colKind))
			label = p.Muted.Paint(cleanText(ev.Text))
		}
	case session.EvLists:
		kind = p.Muted.Paint(textfmt.FitRow("list", colKind))
		label = p.Muted.Paint(cleanText(ev.Note + ": " + ev.Text))
	case session.EvGap:
		kind = p.Finding.Paint(textfmt.FitRow("gap", colKind))
		label = p.Finding.Paint(gapLine(ev))
	}
	if dir == "" {
		dir = " "
	}
	if kind == "" {
		kind = textfmt.FitRow(ev.Kind.String(), colKind)
	}
	// The right-hand columns keep their places; a row that leaves the leading ones empty
	// (stderr, state, transport rows; HTTP rows have only a latency) gives their room to
	// its text.
	var right string
	rightW := colID + colSize + colLat + colBadge + 2
	switch {
	case id == "" && size == "" && lat == "" && badge == "":
		rightW = 0
	case id == "" && size == "":
		right = textfmt.PadLeft(lat, colLat) + textfmt.Pad(badge, colBadge)
		rightW = colLat + colBadge
	default:
		right = textfmt.PadLeft(textfmt.Clip(id, colID), colID) + " " + textfmt.PadLeft(size, colSize) + " " + textfmt.PadLeft(lat, colLat) + textfmt.Pad(badge, colBadge)
	}
	fixed := colTime + 1 + colDir + 1 + colKind + 1
	labelW := max(4, width-fixed-rightW-1)
	if e.Era != nil && ev.Kind == session.EvFrame {
		label = withEraHint(p, label, e.Era.Row, labelW)
	}
	line := rel + " " + dir + " " + kind + " " + textfmt.Pad(ansi.Truncate(label, labelW, "…"), labelW) + " " + right
	return textfmt.FitRow(line, width)
}

// frameColumns are a frame row's direction arrow, kind and label: the method (a response
// names its request's), an error's code and message, a request's latest progress.
func frameColumns(s *Styles, mask *secret.Masker, e *traffic.Entry) (dir, kind, label string) {
	p := s.Rows()
	ev := e.Ev
	f := ev.Frame
	dir = eventArrow(s, ev)
	kind = kindLabel(s, f.Kind)
	if ev.Corr.Probe && f.Kind == protocol.KindError {
		kind = p.Muted.Paint(textfmt.FitRow("error", colKind))
	}
	label = f.Method
	if label == "" {
		label = ev.Corr.Method
	}
	if label == "" && e.Pair != nil && e.Pair.Ev != nil && e.Pair.Ev.Frame != nil {
		label = e.Pair.Ev.Frame.Method
	}
	label = cleanText(label)
	if t := targetText(e, mask); t != "" {
		label += " " + t
	}
	switch f.Kind {
	case protocol.KindError:
		label = strings.TrimSpace(label + " " + errorText(f.Error))
		if ev.Corr.Probe {
			label = p.Muted.Paint(label) // the era probe refused: an expected handshake step
		} else {
			label = p.Err.Paint(label)
		}
	case protocol.KindResult:
		if t := rootsAnswerText(e); t != "" {
			label += " " + p.Accent.Paint(cleanText(t))
		}
		if e.ToolErr {
			kind = p.Err.Paint(textfmt.FitRow("res", colKind))
			label = p.Err.Paint(strings.TrimSpace(label + " ✗ tool error: " + toolErrorText(f)))
		}
	case protocol.KindBatch:
		label = strings.TrimSpace(label + " " + batchText(f))
		if e.IsError() {
			label = p.Err.Paint(label)
		}
	case protocol.KindInvalid:
		label = p.Finding.Paint(strings.TrimSpace(label + " " + clipBytes(f.Raw, 80)))
	case protocol.KindNotification:
		if ev.Corr.Progress != nil {
			label += " " + p.Notification.Paint(common.ProgressText(ev.Corr.Progress))
		}
		if f.Method == "notifications/message" {
			label = logLabel(p, f)
		}
		if f.Method == "notifications/resources/updated" {
			label = p.Accent.Paint(label + " " + cleanText(traffic.RequestTarget(traffic.MethodResourcesRead, f.Params)))
		}
	}
	if e.Progress != nil && (f.Kind == protocol.KindRequest || f.Kind == protocol.KindBatch) {
		label += progressBadge(s, e.Progress)
	}
	if isLate(f) {
		label += " " + p.Finding.Paint("(late: after mcpscope gave up)")
	}
	if e.Clipped > 0 {
		label += " " + p.Accent.Paint("✂ truncated in memory")
	}
	if mark := chainMark(e); mark != "" {
		label = p.Accent.Paint(mark) + label
	}
	if mark := editMark(e); mark != "" {
		label = p.Err.Paint(mark) + label
	}
	label = laneLabel(s, ev, label)
	if mark := faultMark(e); mark != "" {
		label += " " + p.Err.Paint(mark)
	}
	return dir, kind, label
}

// latencyText is the latency column: a response's latency, the live elapsed time of a
// request still waiting, or why it failed.
func latencyText(s *Styles, e *traffic.Entry, now time.Time) string {
	p := s.Rows()
	switch {
	case e.Waiting():
		return p.Accent.Paint("⏱" + textfmt.Elapsed(now.Sub(e.Ev.Time)))
	case e.Failed != "" && e.Ev.Corr.Probe:
		// The era probe failing (an HTTP 4xx from a server of the earlier era) is how the
		// fallback is decided: a step of the handshake, not an error.
		return p.Muted.Paint("↩ fallback")
	case e.Failed != "" && strings.HasPrefix(e.Failed, "cancelled"):
		return p.Err.Paint("✗ cancel")
	case e.Failed != "":
		return p.Err.Paint("✗ failed")
	}
	d := e.Latency()
	if d <= 0 {
		return ""
	}
	if e.IsRequest() {
		return p.Muted.Paint(textfmt.Duration(d))
	}
	return textfmt.Duration(d)
}

// errorText is "code message" of a JSON-RPC error member.
func errorText(eo *protocol.ErrorObject) string {
	if eo == nil {
		return ""
	}
	t := ""
	if eo.CodeOK {
		t = strconv.FormatInt(eo.Code, 10)
	}
	if eo.MessageOK {
		t = strings.TrimSpace(t + " " + cleanText(eo.Message))
	}
	return t
}

// batchText summarises a batch's members: "[3: 2 req, 1 note]".
func batchText(f *protocol.Frame) string {
	var n [6]int
	for _, m := range f.Batch {
		if int(m.Kind) < len(n) {
			n[m.Kind]++
		}
	}
	names := [...]string{"bad", "req", "note", "res", "error", "batch"}
	var parts []string
	for k, c := range n {
		if c > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c, names[k]))
		}
	}
	return fmt.Sprintf("[%d: %s]", len(f.Batch), strings.Join(parts, ", "))
}

// clipBytes is the head of raw as one line.
func clipBytes(raw []byte, n int) string {
	if len(raw) > n {
		raw = raw[:n]
	}
	return cleanText(strings.Join(strings.Fields(string(raw)), " "))
}

func stateLine(ev *session.Event) string {
	if ev.Text == "" {
		return ev.State.String()
	}
	return ev.State.String() + ": " + ev.Text
}

func httpLine(h *transport.HTTPExchange) string {
	step := ""
	if h.Step != "" { // an authorization exchange: its step first
		step = "[" + h.Step + "] "
	}
	if h.Err != "" {
		return fmt.Sprintf("%s%s %s ✗ %s", step, h.Method, shortURL(h.URL), h.Err) + paramHeaders(h.ReqHeaders)
	}
	line := fmt.Sprintf("%s%s %s → %d", step, h.Method, shortURL(h.URL), h.Status)
	for _, p := range h.Problems {
		if p.Code == protocol.FindAuthScopeNotGranted { // what the token lacks, on the step's row
			line += " · " + p.Text
		}
	}
	if r := h.Redirect; r != nil && r.Location != "" {
		to := r.Location
		if !r.CrossOrigin {
			to = shortURL(to)
		}
		line += " → " + to
		if !r.Followed {
			line += " (not followed)"
		}
	}
	return line + paramHeaders(h.ReqHeaders)
}

// paramHeaders lists the Mcp-Param-* headers a request carried (tool parameters mirrored
// per SEP-2243) as " · Mcp-Param-Region: us-west1, …", sorted; "" when there are none.
func paramHeaders(h http.Header) string {
	var params []string
	for name, values := range h {
		if len(name) > len("Mcp-Param-") && strings.EqualFold(name[:len("Mcp-Param-")], "Mcp-Param-") {
			params = append(params, name+": "+strings.Join(values, ", "))
		}
	}
	if len(params) == 0 {
		return ""
	}
	slices.Sort(params)
	return " · " + strings.Join(params, " · ")
}

// shortURL drops the scheme and host when the path says enough.
func shortURL(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		if j := strings.IndexByte(u[i+3:], '/'); j >= 0 {
			return u[i+3+j:]
		}
	}
	return u
}

func dirArrow(s *Styles, d protocol.Direction) string {
	p := s.Rows()
	if d == protocol.ClientToServer {
		return p.Request.Paint("→")
	}
	return p.Response.Paint("←")
}

func kindLabel(s *Styles, k protocol.Kind) string {
	p := s.Rows()
	switch k {
	case protocol.KindRequest:
		return p.Request.Paint(textfmt.FitRow("req", colKind))
	case protocol.KindNotification:
		return p.Notification.Paint(textfmt.FitRow("note", colKind))
	case protocol.KindResult:
		return p.Response.Paint(textfmt.FitRow("res", colKind))
	case protocol.KindError:
		return p.Err.Paint(textfmt.FitRow("error", colKind))
	case protocol.KindBatch:
		return p.Accent.Paint(textfmt.FitRow("batch", colKind))
	}
	return p.Finding.Paint(textfmt.FitRow("bad", colKind))
}

func progressBadge(s *Styles, pr *session.Progress) string {
	return " " + s.Rows().Accent.Paint(common.ProgressText(pr))
}

func relTime(t, start time.Time) string {
	if start.IsZero() || t.Before(start) {
		return "+0.000"
	}
	// Past 10,000 s the decimals give way, so the column keeps its width and its gap.
	secs := t.Sub(start).Seconds()
	for prec := 3; ; prec-- {
		if s := fmt.Sprintf("+%.*f", prec, secs); len(s) <= colTime || prec == 0 {
			return s
		}
	}
}

// cleanText makes text from the wire safe for one terminal row (jsonview.VisibleLine).
func cleanText(s string) string { return jsonview.VisibleLine(s) }

// gapLine is a gap row's label: "⋯ 412 events dropped between #1200 and #1611 (103 MiB)".
func gapLine(ev *session.Event) string { return "⋯ " + gapText(ev) }

// gapText says what a gap event stands for, naming events by their seq as "#N".
func gapText(ev *session.Event) string {
	if ev.Gap == nil {
		return cleanText(ev.Text)
	}
	return ev.Gap.Describe("#")
}

// withEraHint ends a failure's label with the era hint, cutting the label rather than the
// hint (the hint says how to get past the failure); where even the hint's short form leaves
// too little of the label, the label stays as it is.
func withEraHint(p *common.RowPaints, label, hint string, w int) string {
	short, _, _ := strings.Cut(hint, ":")
	for _, h := range []string{hint, short} {
		hw := ansi.StringWidth(h) + 3 // " (" and ")"
		if w-hw >= 12 {
			return ansi.Truncate(label, w-hw, "…") + " " + p.Accent.Paint("("+h+")")
		}
	}
	return label
}
