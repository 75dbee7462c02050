package fault

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/transport"
)

// HoldNoteKind is the kind of the notes about held messages: one when a breakpoint holds
// a message (with its bytes), one when the user decided (what was done, after how long).
const HoldNoteKind = "hold"

// holdOut holds a message the session sends.
func (t *Transport) holdOut(ctx context.Context, m transport.Outgoing, point, method string) error {
	f := protocol.Decode(m.Raw)
	h := &Held{Dir: protocol.ClientToServer, Raw: clone(m.Raw), Since: time.Now(), Point: point,
		Request: f.Kind == protocol.KindRequest && !f.ID.IsZero(), Kind: f.Kind, Method: method, MsgID: f.ID,
		LineFramed: t.lineFramed()}
	// The decision may come before hold returns: it reads h, never the result.
	held := t.eng.breaks.hold(h, t, func(d Decision) error {
		var err error
		switch d.Verb {
		case Forward:
			out := m
			if d.Raw != nil {
				out.Raw = d.Raw
			}
			// What goes on passes the rules, as the bytes delivered.
			err = t.send(t.ctx, out, t.eng.JudgeRules(protocol.ClientToServer, out.Raw, time.Now()))
		case Answer:
			t.sink.Received(clone(d.Raw), transport.RecvInfo{Via: ViaMcpscope, Size: int64(len(d.Raw))})
		}
		t.sink.Note(transport.Note{Kind: HoldNoteKind, Text: decided(h, d, err)})
		return err
	})
	if held == nil {
		t.sink.Note(transport.Note{Kind: HoldNoteKind, Text: notHeld(point)})
		return t.inner.Send(ctx, m)
	}
	t.sink.Note(transport.Note{Kind: HoldNoteKind, Text: holding(h)})
	return nil
}

// lineFramed reports whether the wire ends a frame at a newline: stdio.
func (t *Transport) lineFramed() bool { return t.inner.Name() == "stdio" }

// notHeld is the note of a matching message passed on because the bounds were reached.
func notHeld(point string) string {
	return fmt.Sprintf("not held (breakpoint %s): %d messages or %d MiB held already; passed on", point, maxHeld, maxHeldBytes>>20)
}

// holdIn holds a message the server sent.
func (t *Transport) holdIn(raw []byte, info transport.RecvInfo, point, method string) {
	f := protocol.Decode(raw)
	h := &Held{Dir: protocol.ServerToClient, Raw: clone(raw), Since: time.Now(), Point: point,
		Request: f.Kind == protocol.KindRequest && !f.ID.IsZero(), Kind: f.Kind, Method: method, MsgID: f.ID,
		LineFramed: t.lineFramed()}
	// The decision may come before hold returns: it reads h, never the result.
	held := t.eng.breaks.hold(h, t, func(d Decision) error {
		var err error
		switch d.Verb {
		case Forward:
			in := info
			b := h.Raw
			if d.Raw != nil {
				b = d.Raw
			}
			in.Size = int64(len(b))
			// What goes on passes the rules, as the bytes delivered.
			fs := &faultSink{Sink: t.sink, t: t}
			fs.receive(clone(b), in, t.eng.JudgeRules(protocol.ServerToClient, b, time.Now()))
		case Answer:
			err = t.inner.Send(t.ctx, transport.Outgoing{Raw: d.Raw, IsResponse: true, NoWait: true})
		}
		t.sink.Note(transport.Note{Kind: HoldNoteKind, Text: decided(h, d, err)})
		return err
	})
	if held == nil {
		t.sink.Note(transport.Note{Kind: HoldNoteKind, Text: notHeld(point)})
		t.sink.Received(raw, info)
		return
	}
	t.sink.Note(transport.Note{Kind: HoldNoteKind, Text: holding(h)})
}

// holding is the note of a message held: its first line names the breakpoint, the next
// has the bytes (one line, at most 4 KiB).
func holding(h *Held) string {
	return fmt.Sprintf("held #%d by breakpoint %s\n%s%s", h.ID, h.Point, originalLine(h.Dir), shown(h.Raw))
}

// decided is the note of the user's decision on h.
func decided(h *Held, d Decision, err error) string {
	end := d.at
	if end.IsZero() {
		end = time.Now()
	}
	after := end.Sub(h.Since).Round(time.Millisecond)
	var b strings.Builder
	switch d.Verb {
	case Forward:
		fmt.Fprintf(&b, "held #%d forwarded after %s", h.ID, after)
		if d.Raw != nil {
			b.WriteString(", edited")
		}
		if d.spaced {
			b.WriteString(spacedNote)
		}
	case DropIt:
		fmt.Fprintf(&b, "held #%d dropped after %s", h.ID, after)
	case Answer:
		fmt.Fprintf(&b, "held #%d answered by mcpscope after %s", h.ID, after)
		if d.spaced {
			b.WriteString(spacedNote)
		}
	}
	if err != nil {
		b.WriteString(": " + err.Error())
	}
	b.WriteString("\n" + originalLine(h.Dir) + shown(h.Raw))
	if d.Raw != nil {
		line := lineDelivered
		if d.Verb == Answer {
			line = lineAnswer
		}
		b.WriteString("\n" + line + shown(d.Raw))
	}
	return b.String()
}

// originalLine starts the line of a message's bytes as it came.
func originalLine(d protocol.Direction) string {
	if d == protocol.ServerToClient {
		return lineOriginalIn
	}
	return lineOriginalOut
}
