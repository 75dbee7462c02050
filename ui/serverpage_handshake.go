package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/explorer"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// HandshakeEntries picks the handshake of session gen out of the history: every frame,
// handshake step and error from the start of the session up to the state event that says
// it is ready (or closed), which is included. A failed server/discover probe before a
// fallback to initialize is part of it.
func HandshakeEntries(h *traffic.History, gen int) []*traffic.Entry {
	var out []*traffic.Entry
	for _, e := range h.Entries() {
		if e.Gen != gen || e.Ev == nil {
			continue
		}
		in, last := handshakeStep(e.Ev)
		if in {
			out = append(out, e)
		}
		if last {
			return out
		}
	}
	return out
}

// handshakeStep says whether ev, met before its session's handshake ended, is part of the
// handshake, and whether it is the handshake's last event.
func handshakeStep(ev *session.Event) (in, last bool) {
	switch ev.Kind {
	case session.EvFrame, session.EvError:
		return true, false
	case session.EvState:
		switch {
		case ev.State == session.StateReady || ev.State == session.StateClosed:
			return true, true
		case ev.State == session.StateHandshaking && ev.Text != "":
			return true, false
		}
	}
	return false, false
}

// handshakes tracks, event by event, which events belong to the handshake of their
// session (generation), for saves that must keep it. A session whose first event is the
// session's own start (a connecting or handshaking state) has the handshake
// HandshakeEntries picks, with every state step; one without state events (a tap's traffic) has the leading
// frames of the handshake's methods. A session met in the middle (its start is not there)
// has none, so nothing is taken for it.
type handshakes map[int]*hsTrack

type hsTrack struct {
	states bool // the session records its states: the ready state ends the handshake
	done   bool
}

// handshakeMethods are the methods of the handshake's frames.
var handshakeMethods = map[string]bool{"initialize": true, "notifications/initialized": true, "server/discover": true}

// midSession marks session gen as met in the middle: none of its events are taken.
func (h handshakes) midSession(gen int) { h[gen] = &hsTrack{done: true} }

// take reports whether ev of session gen is part of that session's handshake.
func (h handshakes) take(gen int, ev *session.Event) bool {
	if ev == nil {
		return false
	}
	t := h[gen]
	if t == nil {
		t = &hsTrack{states: ev.Kind == session.EvState}
		h[gen] = t
		if t.states && ev.State != session.StateConnecting && ev.State != session.StateHandshaking && ev.State != session.StateIdle {
			t.done = true
		}
	}
	if t.done {
		return false
	}
	if !t.states {
		f := ev.Frame
		if ev.Kind != session.EvFrame || f == nil {
			return false
		}
		method := f.Method
		if method == "" {
			method = ev.Corr.Method
		}
		if !handshakeMethods[method] {
			t.done = true
			return false
		}
		return true
	}
	switch ev.Kind {
	case session.EvFrame, session.EvError:
		return true
	case session.EvState: // every step, so that a save of it starts as the session did
		_, t.done = handshakeStep(ev)
		return true
	}
	return false
}

// websiteOf finds serverInfo.websiteUrl in the handshake's answer: in an InitializeResult,
// or in the _meta of a DiscoverResult.
func websiteOf(hs []*traffic.Entry) string {
	for _, e := range hs {
		if info, ok := handshakeAnswer(e); ok && info.Website != "" {
			return info.Website
		}
	}
	return ""
}

// capabilitySummary reads declared capabilities as a list, in the server's order: each
// capability with the features it turns on, e.g. "resources (subscribe, listChanged)".
func capabilitySummary(raw json.RawMessage) []string {
	keys, obj, err := protocol.OrderedObject(raw)
	if err != nil {
		return nil
	}
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		v := obj[k]
		subKeys, sub, err := protocol.OrderedObject(v)
		if err != nil {
			out = append(out, k+": "+strings.TrimSpace(string(v)))
			continue
		}
		var on []string
		for _, sk := range subKeys {
			switch strings.TrimSpace(string(sub[sk])) {
			case "false", "null":
			default:
				on = append(on, sk)
			}
		}
		if len(on) == 0 {
			out = append(out, k)
		} else {
			out = append(out, k+" ("+strings.Join(on, ", ")+")")
		}
	}
	return out
}

// handshakeLines renders the handshake exchange: one heading per event, then the frame
// pretty-printed.
func handshakeLines(s *Styles, hs []*traffic.Entry, prefix string, w int) []string {
	if len(hs) == 0 {
		return nil
	}
	start := hs[0].Ev.Time
	var out []string
	for _, e := range hs {
		ev := e.Ev
		at := s.Muted.Render(relTime(ev.Time, start) + "s ")
		switch ev.Kind {
		case session.EvFrame:
			f := ev.Frame
			head := dirArrow(s, ev.Dir) + " " + kindLabel(s, f.Kind) + " "
			method := f.Method
			if method == "" {
				method = ev.Corr.Method
			}
			head += s.Bold.Render(method)
			if !f.ID.IsZero() {
				head += s.Muted.Render(" #" + f.ID.String())
			}
			if ev.Corr.Latency > 0 {
				head += s.Muted.Render("  " + textfmt.Duration(ev.Corr.Latency))
			}
			out = append(out, "", prefix+at+head)
			for _, fd := range session.AllFindings(f) {
				out = append(out, textfmt.WrapProse(s.Finding, fmt.Sprintf("⚠ %s: %s", fd.Code, fd.Message), prefix+"  ", w)...)
			}
			out = append(out, explorer.StyledJSONLines(s, f.Raw, prefix+"  ", w)...)
		case session.EvError:
			out = append(out, "")
			out = append(out, textfmt.Hanging(s.Error, prefix+at, "error: "+ev.Text, w)...)
		case session.EvState:
			out = append(out, "")
			out = append(out, textfmt.Hanging(s.Muted, prefix+at, "· "+stateLine(ev), w)...)
		}
	}
	return out
}
