package session

import "fmt"

// NoteNewSession marks the EvState event that starts a new HTTP session after the server
// ended the old one (404 Not Found for its session id); the timeline shows it as a marker.
const NoteNewSession = "new-session"

// renewSessionLocked starts a new session after the server answered 404 Not Found for
// session id ended: a new initialize (and notifications/initialized, and the standalone GET
// stream), in the background. Nothing that failed is sent again: the caller's request fails
// with an error that says so. It does nothing outside the ready state of the stateful era, or
// while a renewal is already running. s.mu is held.
func (s *Session) renewSessionLocked(ended string) {
	if s.state != StateReady || s.info.Stateless || s.renewing || s.ctx.Err() != nil {
		return
	}
	s.renewing = true
	rev := s.info.Revision
	s.emit(&Event{Kind: EvState, State: s.state, Note: NoteNewSession, Text: fmt.Sprintf(
		"new session: the server ended session %s (404 Not Found); initialize again (protocol %s)", ended, rev)})
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.setState(StateHandshaking, "new session")
		err := s.initialize(s.ctx, rev)
		s.mu.Lock()
		s.renewing = false
		s.mu.Unlock()
		if err != nil {
			if s.ctx.Err() == nil {
				s.errorEvent("new session after 404: %v", err)
			}
			return
		}
		info := s.Info()
		s.setState(StateReady, readyText(info, " (new session)"))
		s.afterReady()
	}()
}
