package session

import "time"

// NoteAppEnded is Event.Note of the app lane's row that says a hosted view ended and why.
const NoteAppEnded = "app-ended"

// Ended publishes, on the lane, a transport note saying the hosted view ended and why (the
// page was left, the browser went away), so the timeline shows the end as a row.
func (l *AppLane) Ended(why string) *Event {
	return l.s.publish(&Event{Kind: EvTransport, Note: NoteAppEnded, Lane: LaneApp, Time: time.Now(), Text: why})
}
