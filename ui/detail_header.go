package ui

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/session/secret"
	"github.com/mcpscope/mcpscope/session/transport"
	"github.com/mcpscope/mcpscope/ui/internal/common"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// labelWidth is the width of the label column of header fields.
const labelWidth = 11

// textBlock builds the detail pane's text, line by line, at one width. Every piece of text that
// came from outside (frames, headers, stderr) is escaped before it is drawn.
type textBlock struct {
	s     *Styles
	w     int
	lines []string
	// mask, for a block drawn on the screen, masks a paragraph's secrets before it is
	// wrapped: a secret wrapped over two lines would escape the last pass over the screen.
	mask *secret.Masker
}

func newTextBlock(s *Styles, w int) *textBlock { return &textBlock{s: s, w: max(1, w)} }

// line adds one styled line as it is (the view cuts it to the width).
func (b *textBlock) line(s string) { b.lines = append(b.lines, s) }

// blank adds an empty line unless the textBlock is empty or already ends with one.
func (b *textBlock) blank() {
	if n := len(b.lines); n > 0 && b.lines[n-1] != "" {
		b.lines = append(b.lines, "")
	}
}

// para word-wraps text in st, indenting every line by indent cells.
func (b *textBlock) para(st lipgloss.Style, text string, indent int) {
	pad := strings.Repeat(" ", indent)
	w := max(1, b.w-indent)
	if b.mask != nil {
		text = b.mask.String(text)
	}
	for _, l := range strings.Split(text, "\n") {
		l = escapeText(l)
		if l == "" {
			b.lines = append(b.lines, "")
			continue
		}
		for _, part := range strings.Split(textfmt.Wrap(l, w), "\n") {
			b.lines = append(b.lines, pad+st.Render(part))
		}
	}
}

// field adds "label      value", the value word-wrapped in its own column.
func (b *textBlock) field(label string, st lipgloss.Style, value string) {
	if b.w < labelWidth+12 {
		b.para(b.s.Muted, label, 0)
		b.para(st, value, 2)
		return
	}
	if strings.TrimSpace(value) == "" {
		value = "—"
	}
	start := len(b.lines)
	b.para(st, value, labelWidth)
	if len(b.lines) == start {
		b.lines = append(b.lines, strings.Repeat(" ", labelWidth))
	}
	first := b.lines[start]
	if len(first) >= labelWidth {
		first = first[labelWidth:]
	} else {
		first = ""
	}
	b.lines[start] = b.s.Muted.Render(textfmt.Pad(label, labelWidth-1)) + " " + first
}

// frameHeader describes a frame: what, when, how big, how it arrived, what it belongs to,
// and what is wrong with it.
func frameHeader(b *textBlock, e *traffic.Entry) {
	s, ev, f := b.s, e.Ev, e.Ev.Frame
	title := eventArrow(s, ev) + " " + kindStyle(s, f.Kind).Render(f.Kind.String())
	method := f.Method
	if method == "" {
		method = ev.Corr.Method
	}
	if method != "" {
		title += "  " + s.Bold.Render(escapeText(method))
	}
	if !f.ID.IsZero() {
		title += "  " + s.Subtle.Render("#"+escapeText(f.ID.String()))
	}
	b.line(title)
	b.field("time", s.Text, fmt.Sprintf("%s  (event %d)", ev.Time.Format("2006-01-02 15:04:05.000"), ev.Seq))
	size := sizeText(max(int64(len(f.Raw)), e.Clipped), ev.Recv)
	if editedRequest(e) && !isCutNote([]byte(e.Delivered)) {
		size = textfmt.Bytes(int64(len(e.Delivered))) + " delivered (" + size + " before the edit)"
	}
	b.field("size", s.Text, size)
	if e.Clipped > 0 {
		b.field("memory", s.Accent, clipNote(e))
	}
	if ev.Corr.Latency > 0 {
		b.field("latency", s.Text, textfmt.Duration(ev.Corr.Latency))
	}
	arrived := arrivalText(ev)
	if e.Delivered != "" && ev.Dir == protocol.ClientToServer {
		arrived += "; held at a breakpoint and edited: the server got the bytes under delivered"
	}
	b.field("arrived", s.Transport, arrived)
	correlationText(b, e)
	if f.Error != nil {
		b.field("error", s.Error, errorObjectText(f.Error))
	}
	if e.ToolErr {
		b.field("error", s.Error, "the tool failed (result.isError is true)")
	}
	if e.Era != nil {
		b.field("era", s.Accent, e.Era.Detail)
	}
	if f.Kind == protocol.KindBatch {
		b.field("batch", s.Text, fmt.Sprintf("%d messages", len(f.Batch)))
	}
	if e.Failed != "" {
		b.field("failed", s.Error, "no response: "+e.Failed)
	}
	if e.Fault != "" {
		b.field("fault", s.Error, escapeText(e.Fault)+"; the note after it holds the bytes as they came and as they were passed on")
	}
	holdFields(b, e)
	findingsText(b, f)
}

// correlationText says what the frame answers, refers to or is waiting for.
func correlationText(b *textBlock, e *traffic.Entry) {
	s, ev, f := b.s, e.Ev, e.Ev.Frame
	switch {
	case f.Kind.IsResponse() || (f.Kind == protocol.KindBatch && ev.Corr.RequestSeq != 0):
		switch {
		case e.Pair != nil:
			b.field("answers", s.Request, "request "+entryLabel(e.Pair)+" sent "+e.Pair.Ev.Time.Format("15:04:05.000"))
		case e.Ref != nil:
			b.field("answers", s.Finding, "request "+entryLabel(e.Ref)+", which an earlier response already answered")
		case ev.Corr.RequestSeq != 0:
			b.field("answers", s.Muted, fmt.Sprintf("the request of event %d (no longer in memory)", ev.Corr.RequestSeq))
		default:
			b.field("answers", s.Finding, "no request mcpscope is waiting for")
		}
	case f.Kind == protocol.KindRequest:
		switch {
		case e.Pair != nil:
			b.field("answer", s.Response, pairLabel(e.Pair)+" after "+textfmt.Duration(e.Pair.Ev.Corr.Latency))
		case e.Waiting():
			b.field("answer", s.Accent, "waiting for a response")
		case e.Answered:
			b.field("answer", s.Muted, "answered (the response is no longer in memory)")
		}
		if e.Progress != nil {
			b.field("progress", s.Accent, common.ProgressText(e.Progress))
		}
	case ev.Corr.Progress != nil:
		v := common.ProgressText(ev.Corr.Progress)
		if e.Ref != nil {
			v += " — of request " + entryLabel(e.Ref)
		}
		b.field("progress", s.Accent, v)
	case e.Ref != nil:
		b.field("refers to", s.Request, "request "+entryLabel(e.Ref))
	}
	chainText(b, e)
}

// findingsText lists the frame's findings (and its batch members'), each explained.
func findingsText(b *textBlock, f *protocol.Frame) {
	for _, fd := range f.Findings {
		findingText(b, fd, 0)
	}
	for i, m := range f.Batch {
		for _, fd := range m.Findings {
			findingText(b, fd, i+1)
		}
	}
}

// findingText is one finding, explained; member is its 1-based batch message, or 0.
func findingText(b *textBlock, fd protocol.Finding, member int) {
	s := b.s
	b.blank()
	head := fmt.Sprintf("⚠ %s %s", fd.Severity, fd.Code)
	if member > 0 {
		head += fmt.Sprintf(" (batch message %d)", member)
	}
	b.para(s.BadgeFinding, head, 0)
	b.para(s.Finding, fd.Message, 2)
	if x := protocol.Explain(fd.Code); x != "" {
		b.para(s.Finding, x, 2)
	}
}

// eventText describes an entry that is not a frame: a marker, a stderr line, an HTTP
// exchange, a transport note, an exit, a state change, an error or a list refresh.
func eventText(b *textBlock, e *traffic.Entry) {
	s := b.s
	if e.Marker != "" {
		b.line(s.Accent.Render("marker"))
		b.para(s.Text, e.Marker, 0)
		return
	}
	ev := e.Ev
	when := ev.Time.Format("2006-01-02 15:04:05.000") + fmt.Sprintf("  (event %d)", ev.Seq)
	switch ev.Kind {
	case session.EvStderr:
		b.line(s.Stderr.Render("stderr line"))
		b.field("time", s.Text, when)
		b.blank()
		b.para(s.Stderr, ev.Text, 0)
	case session.EvHTTP:
		httpText(b, ev.HTTP, when)
		for _, fd := range ev.Findings {
			findingText(b, fd, 0)
		}
	case session.EvTransport:
		b.line(s.Transport.Render("transport: " + escapeText(ev.Note)))
		b.field("time", s.Text, when)
		b.blank()
		b.para(s.Text, ev.Text, 0)
	case session.EvExit:
		exitText(b, ev, when)
	case session.EvState:
		b.line(s.Bold.Render("state: " + ev.State.String()))
		b.field("time", s.Text, when)
		if ev.Text != "" {
			b.blank()
			b.para(s.Text, ev.Text, 0)
		}
	case session.EvError:
		if ev.Corr.Probe {
			b.line(s.Muted.Render("era probe: no modern answer, so the session falls back to initialize"))
		} else {
			b.line(s.Error.Render("error"))
		}
		b.field("time", s.Text, when)
		if e.Ref != nil {
			b.field("request", s.Request, entryLabel(e.Ref))
		}
		b.blank()
		style := s.Error
		if ev.Corr.Probe {
			style = s.Text
		}
		b.para(style, ev.Text, 0)
	case session.EvLists:
		b.line(s.Muted.Render("list refreshed: " + escapeText(ev.Note)))
		b.field("time", s.Text, when)
		b.para(s.Text, ev.Text, 0)
	case session.EvGap:
		b.line(s.Finding.Render("events dropped"))
		b.field("time", s.Text, when)
		b.blank()
		b.para(s.Finding, gapText(ev), 0)
		b.blank()
		b.para(s.Muted, "This view fell behind the traffic: these events never reached it. The session's recording, when there is one, has every event.", 0)
	default:
		b.line(s.Muted.Render(ev.Kind.String()))
		b.para(s.Text, ev.Summary(), 0)
	}
}

func httpText(b *textBlock, h *transport.HTTPExchange, when string) {
	s := b.s
	if h == nil {
		return
	}
	st := s.Transport
	if h.Status >= 400 || h.Err != "" {
		st = s.Error
	}
	b.line(st.Render("HTTP " + escapeText(h.Method)))
	b.field("url", s.Text, h.URL)
	switch {
	case h.Status != 0:
		b.field("status", st, fmt.Sprintf("%d %s", h.Status, http.StatusText(h.Status)))
	case h.Err == "":
		b.field("status", s.Muted, "no response yet")
	}
	if h.Err != "" {
		b.field("error", s.Error, h.Err)
	}
	b.field("purpose", s.Text, h.Purpose)
	if h.Step != "" {
		b.field("step", s.Text, stepLabel(h.Purpose, h.Step))
	}
	if h.Hop > 0 {
		b.field("redirect", s.Text, fmt.Sprintf("hop %d of the request", h.Hop))
	}
	if r := h.Redirect; r != nil {
		b.field("location", s.Text, r.Location)
		switch {
		case r.NotFollowed != "":
			b.field("followed", s.Error, "no: "+r.NotFollowed)
		case len(r.Withheld) > 0:
			b.field("followed", s.Text, "to another origin, without "+strings.Join(r.Withheld, ", "))
		case len(r.Forwarded) > 0:
			b.field("followed", s.Text, "to another origin, with "+strings.Join(r.Forwarded, ", "))
		default:
			b.field("followed", s.Text, "yes")
		}
	}
	b.field("duration", s.Text, textfmt.Duration(h.Duration)+" (until the response headers)")
	if h.ContentType != "" {
		b.field("content", s.Text, h.ContentType)
	}
	b.field("time", s.Text, when)
	headerList(b, "Request headers", h.ReqHeaders)
	headerList(b, "Response headers", h.RespHeaders)
	for _, part := range []struct{ title, body string }{{"Request body (secrets masked)", h.ReqBody}, {"Response body (secrets masked)", h.RespBody}} {
		if part.body != "" {
			b.blank()
			b.line(b.s.PaneTitle.Render(part.title))
			b.para(b.s.Text, part.body, 2)
		}
	}
	if len(h.Checks) > 0 {
		b.blank()
		b.line(b.s.PaneTitle.Render("Checked"))
		for _, c := range h.Checks {
			b.para(b.s.Text, "✓ "+c, 2)
		}
	}
}

// headerList lists HTTP headers sorted by name (the transport already masked secrets).
func headerList(b *textBlock, title string, h http.Header) {
	b.blank()
	b.line(b.s.PaneTitle.Render(title))
	if len(h) == 0 {
		b.para(b.s.Muted, "none", 2)
		return
	}
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		for _, v := range h[k] {
			b.para(b.s.Text, k+": "+v, 2)
		}
	}
}

func exitText(b *textBlock, ev *session.Event, when string) {
	s := b.s
	b.line(s.Error.Render("server ended"))
	b.field("time", s.Text, when)
	if x := ev.Exit; x != nil {
		switch {
		case x.Signal != "":
			b.field("signal", s.Error, x.Signal)
		case x.Code >= 0:
			b.field("exit code", s.Error, fmt.Sprint(x.Code))
		}
		if x.Err != "" {
			b.field("how", s.Error, x.Err)
		}
		if x.ByUs {
			b.field("by", s.Text, "mcpscope closed it")
		}
		if len(x.LastStderr) > 0 {
			b.blank()
			b.line(s.PaneTitle.Render("Last lines on stderr"))
			for _, l := range x.LastStderr {
				b.para(s.Stderr, l, 2)
			}
		}
	}
	if ev.Text != "" {
		b.blank()
		b.para(s.Text, ev.Text, 0)
	}
}

// entryLabel names a frame entry briefly: "#7 tools/call".
func entryLabel(e *traffic.Entry) string {
	if e == nil || e.Ev == nil || e.Ev.Frame == nil {
		return "?"
	}
	f := e.Ev.Frame
	parts := []string{}
	if !f.ID.IsZero() {
		parts = append(parts, "#"+f.ID.String())
	}
	m := f.Method
	if m == "" {
		m = e.Ev.Corr.Method
	}
	if m != "" {
		parts = append(parts, m)
	}
	if len(parts) == 0 {
		return fmt.Sprintf("(event %d)", e.Ev.Seq)
	}
	return strings.Join(parts, " ")
}

// pairLabel says how a request was answered: "result" or "error -32601".
func pairLabel(r *traffic.Entry) string {
	f := r.Ev.Frame
	if f.Kind == protocol.KindError && f.Error != nil && f.Error.CodeOK {
		return fmt.Sprintf("error %d", f.Error.Code)
	}
	return f.Kind.String()
}

func errorObjectText(eo *protocol.ErrorObject) string {
	var parts []string
	if eo.CodeOK {
		parts = append(parts, fmt.Sprint(eo.Code))
	}
	if eo.MessageOK {
		parts = append(parts, eo.Message)
	}
	if len(parts) == 0 {
		return "malformed error object"
	}
	return strings.Join(parts, " ")
}

// arrivalText says how a frame came: sent by mcpscope or, in a tap, by the host, or which
// stream carried it.
func arrivalText(ev *session.Event) string {
	if ev.Recv.Via == fault.ViaMcpscope {
		return "made by mcpscope in the other side's place (a fault rule's answer, or yours at a breakpoint)"
	}
	r := ev.Recv
	if ev.Dir == protocol.ClientToServer {
		switch r.Via { // a tap records what the host sent; mcpscope's own frames carry no Via
		case "stdin":
			return "sent by the host, on the server's stdin (through the tap)"
		case "http":
			return fmt.Sprintf("sent by the host, an HTTP request body (through the tap), HTTP exchange %d", r.Exchange)
		case "postMessage":
			return "sent by mcpscope, the app's host, by postMessage"
		}
		return "sent by mcpscope"
	}
	var v string
	switch r.Via {
	case "stdout":
		v = "the server's stdout"
	case "http":
		v = "an HTTP response body"
	case "sse":
		v = "an SSE event"
		if r.SSEEvent != "" {
			v += " (" + r.SSEEvent + ")"
		}
		if r.SSEID != "" {
			v += ", event id " + r.SSEID
		}
	case "":
		v = "received"
	default:
		v = r.Via
	}
	if r.Exchange != 0 {
		v += fmt.Sprintf(", HTTP exchange %d", r.Exchange)
	}
	if r.Unterminated {
		v += "; the stream ended before its newline"
	}
	return v
}

// sizeText is the size of a frame, with the size on the wire when only its head was kept
// or when the recording masked its secrets (the bytes shown are not the wire's).
func sizeText(kept int64, r transport.RecvInfo) string {
	t := textfmt.ByteCount(kept)
	switch {
	case r.Masked && r.Truncated:
		t = fmt.Sprintf("%s on the wire; its head was kept, then masked: secrets replaced by %s", textfmt.ByteCount(r.Size), secret.Mask)
	case r.Masked:
		t = fmt.Sprintf("%s on the wire; masked: secrets replaced by %s (%s here)", textfmt.ByteCount(max(r.Size, kept)), secret.Mask, t)
	case r.Size > kept:
		t = fmt.Sprintf("%s on the wire; only the first %s were kept", textfmt.ByteCount(r.Size), textfmt.ByteCount(kept))
	}
	return t
}

func kindStyle(s *Styles, k protocol.Kind) lipgloss.Style {
	switch k {
	case protocol.KindRequest:
		return s.Request
	case protocol.KindNotification:
		return s.Notification
	case protocol.KindResult:
		return s.Response
	case protocol.KindError:
		return s.Error
	case protocol.KindBatch:
		return s.Accent
	}
	return s.Finding
}

// stepLabel names what an exchange's step belongs to: a server card's location, or a step
// of authorization.
func stepLabel(purpose, step string) string {
	if purpose == "card" {
		return "server card: " + step
	}
	return "authorization: " + step
}
