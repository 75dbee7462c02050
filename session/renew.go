package session

import (
	"context"
	"errors"
	"fmt"
)

// NoteNewSession marks the EvState event that starts a new HTTP session after the server
// ended the old one (404 Not Found for its session id); the timeline shows it as a marker.
const NoteNewSession = "new-session"

// ErrSessionEnded: the server answered 404 Not Found for the session id the request
// carried, so the request was not processed; the session starts a new one
// (AwaitNewSession waits for it) and sends nothing again by itself.
var ErrSessionEnded = errors.New("the server ended the session")

// sessionEndedError is a send that failed because the server ended the session.
type sessionEndedError struct {
	method, ended string
	err           error
}

func (e *sessionEndedError) Error() string {
	return fmt.Sprintf("send %s: %v: the server ended session %s, so mcpscope starts a new one (initialize); the request was not sent again", e.method, e.err, e.ended)
}

func (e *sessionEndedError) Unwrap() []error { return []error{ErrSessionEnded, e.err} }

// renewal is one new session started after a 404; done closes when it is ready or failed.
type renewal struct {
	done chan struct{}
	err  error
}

// renewSessionLocked starts a new session after the server answered 404 Not Found for
// session id ended: a new initialize (and notifications/initialized, and the standalone GET
// stream), in the background. Nothing that failed is sent again: the caller's request fails
// with ErrSessionEnded. It does nothing outside the ready state of the stateful era, or
// while a renewal is already running. s.mu is held.
func (s *Session) renewSessionLocked(ended string) {
	if s.state != StateReady || s.info.Stateless || s.renewing || s.ctx.Err() != nil {
		return
	}
	s.renewing = true
	rn := &renewal{done: make(chan struct{})}
	s.renewal = rn
	rev := s.info.Revision
	s.emit(&Event{Kind: EvState, State: s.state, Note: NoteNewSession, Text: fmt.Sprintf(
		"new session: the server ended session %s (404 Not Found); initialize again (protocol %s)", ended, rev)})
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer close(rn.done)
		s.setState(StateHandshaking, "new session")
		err := s.initialize(s.ctx, rev)
		s.mu.Lock()
		s.renewing = false
		s.mu.Unlock()
		if err != nil {
			rn.err = fmt.Errorf("new session after 404: %w", err)
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

// AwaitNewSession waits for the new session started after the server ended the last one
// (a request failed with ErrSessionEnded) to be ready, and returns its session id; an error
// when it failed, when ctx or the session ended first, or when no new session was started.
func (s *Session) AwaitNewSession(ctx context.Context) (string, error) {
	s.mu.Lock()
	rn := s.renewal
	s.mu.Unlock()
	if rn == nil {
		return "", errors.New("no new session was started")
	}
	select {
	case <-rn.done:
	case <-ctx.Done():
		return "", ctx.Err()
	case <-s.ctx.Done():
		return "", ErrClosed
	}
	if rn.err != nil {
		return "", rn.err
	}
	return s.Info().SessionID, nil
}
