package session

import "github.com/mcpscope/mcpscope/session/transport"

// NoteLink marks an EvState event that says what the HTTP transport knows of reaching the
// server, without changing the state: Text is "reconnecting N/M" (an event stream waits
// to reconnect after a failure), "unreachable" (a request could not be sent, or a stream
// gave up) or "reachable" (an answer came again). Link gives the last one.
const NoteLink = "link"

// Link is what the transport last said of reaching the server ("" before it said
// anything: reachable as far as anyone knows); see NoteLink.
func (s *Session) Link() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.link == transport.LinkReachable {
		return ""
	}
	return s.link
}
