package ui

import (
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/ui/internal/common"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// faultMark is what a frame row adds when a fault rule acted on the frame (what, by which
// rule), when mcpscope made it in the other side's place, or when a breakpoint held it
// (edited, or what was decided); "" otherwise.
func faultMark(e *traffic.Entry) string {
	switch {
	case traffic.MadeByMcpscope(e):
		return "⚡ made by mcpscope"
	case e.Fault != "":
		return "⚡ " + cleanText(delayWhere(e))
	case editedRequest(e):
		return "" // said at the head of the row (editMark)
	case e.Delivered != "":
		return "⏸ edited at a breakpoint"
	case e.Hold != "":
		return "⏸ " + cleanText(e.Hold)
	}
	return ""
}

// delayWhere is a fault's summary that, for a delay, says which message it held back: the
// request, the answer, or both (a rule on a method matches the request and its answer,
// and the answer's row says when each was delayed).
func delayWhere(e *traffic.Entry) string {
	what, rest, ok := strings.Cut(e.Fault, " (")
	if !ok || !strings.HasPrefix(what, "delay ") || e.Ev == nil || e.Ev.Frame == nil {
		return e.Fault
	}
	where := " on the request"
	switch k := e.Ev.Frame.Kind; {
	case k.IsResponse():
		where = " on the answer"
		if p := e.Pair; p != nil && strings.HasPrefix(p.Fault, "delay ") {
			pw, _, _ := strings.Cut(p.Fault, " (")
			where = " on the answer + " + strings.TrimPrefix(pw, "delay ") + " on the request (both)"
		}
	case k == protocol.KindNotification:
		where = " on the notification"
	}
	return what + where + " (" + rest
}

// editMark heads the label of a request edited at a breakpoint, whose row summarises the
// bytes delivered: at the head, a narrow row keeps it.
func editMark(e *traffic.Entry) string {
	if editedRequest(e) {
		return "⏸ edited "
	}
	return ""
}

// faultRow is the kind and label of a fault's note, or of a held message's: its summary,
// the first line (the rest, the bytes as they came and as they were passed on, is for the
// detail).
func faultRow(p *common.RowPaints, ev *session.Event) (kind, label string) {
	summary, _, _ := strings.Cut(ev.Text, "\n")
	switch ev.Note {
	case fault.HoldNoteKind:
		return p.Accent.Paint(textfmt.FitRow("hold", colKind)), p.Accent.Paint("⏸ " + cleanText(summary))
	case fault.RulesNoteKind:
		return p.Accent.Paint(textfmt.FitRow("fault", colKind)), p.Accent.Paint("⚡ " + cleanText(summary))
	}
	return p.Err.Paint(textfmt.FitRow("fault", colKind)), p.Err.Paint("⚡ " + cleanText(summary))
}

// faultNote reports a note about a message on the wire (a fault applied, a message held,
// the rules and seed on the wire):
// a row the transport rows' toggle does not hide.
func faultNote(ev *session.Event) bool {
	return ev.Kind == session.EvTransport && (ev.Note == fault.NoteKind || ev.Note == fault.HoldNoteKind || ev.Note == fault.RulesNoteKind)
}

// holdFields are the detail's fields of a frame held at a breakpoint: what was decided and,
// when it was edited, the bytes as they came and as passed on (each one line, at most 4 KiB).
func holdFields(b *textBlock, e *traffic.Entry) {
	if e.Hold == "" {
		return
	}
	s := b.s
	b.field("breakpoint", s.Accent, escapeText(e.Hold))
	if e.Delivered != "" {
		b.field("original", s.Muted, escapeText(e.HeldOriginal))
		b.field("delivered", s.Text, escapeText(e.Delivered))
	}
}
