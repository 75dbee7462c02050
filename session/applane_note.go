package session

import (
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
)

// NoteAppEnded is Event.Note of the app lane's row that says a hosted view ended and why.
const NoteAppEnded = "app-ended"

// NoteAppHosted is Event.Note of the app lane's row that gives a hosted view's address:
// Text is "NAME at URL" (AppHostedURL reads the URL back).
const NoteAppHosted = "app-hosted"

// NoteAppCSPViolation is Event.Note of the app lane's row that says what the view's
// Content-Security-Policy blocked; the event carries the finding.
const NoteAppCSPViolation = "app-csp-violation"

// CSPViolation publishes, on the lane, a row saying what the view's policy blocked, with
// its findings (protocol.FindAppCSPViolation; none for a note that says the rest are not
// shown).
func (l *AppLane) CSPViolation(text string, findings []protocol.Finding) *Event {
	return l.s.publish(&Event{Kind: EvTransport, Note: NoteAppCSPViolation, Lane: LaneApp, Time: time.Now(), Text: text, Findings: findings})
}

// Ended publishes, on the lane, a transport note saying the hosted view ended and why (the
// page was left, the browser went away), so the timeline shows the end as a row.
func (l *AppLane) Ended(why string) *Event {
	return l.s.publish(&Event{Kind: EvTransport, Note: NoteAppEnded, Lane: LaneApp, Time: time.Now(), Text: why})
}

// Hosted publishes, on the lane, a transport note giving the address the view of app name
// is hosted at, so the timeline keeps it as a row (and a browser that did not start can be
// given it by hand).
func (l *AppLane) Hosted(name, url string) *Event {
	return l.s.publish(&Event{Kind: EvTransport, Note: NoteAppHosted, Lane: LaneApp, Time: time.Now(), Text: name + " at " + url})
}

// AppHostedURL is the address a NoteAppHosted row gives, and the app's name; ok is false
// for any other event.
func AppHostedURL(ev *Event) (name, url string, ok bool) {
	if ev == nil || ev.Kind != EvTransport || ev.Note != NoteAppHosted {
		return "", "", false
	}
	i := strings.LastIndex(ev.Text, " at ")
	if i < 0 {
		return "", "", false
	}
	return ev.Text[:i], ev.Text[i+len(" at "):], true
}
