package auth

// The Controller side of a Flow: what the view reads and asks of it.

import (
	"context"
	"slices"
	"time"
)

// Status implements Controller.
func (f *Flow) Status() Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.status
	s.ScopesRequested = slices.Clone(s.ScopesRequested)
	s.ScopesGranted = slices.Clone(s.ScopesGranted)
	return s
}

// Changed implements Controller.
func (f *Flow) Changed() <-chan struct{} { return f.changed }

// update changes the status under the lock and signals Changed.
func (f *Flow) update(change func(s *Status)) {
	f.mu.Lock()
	was := f.status.State
	change(&f.status)
	if f.status.State != was {
		f.status.Since = time.Now()
	}
	f.mu.Unlock()
	select {
	case f.changed <- struct{}{}:
	default:
	}
}

func (f *Flow) setStep(step Step) {
	f.update(func(s *Status) { s.State, s.Step = StateDiscovering, step })
}

func (f *Flow) fail(err error) {
	f.update(func(s *Status) {
		if s.Step != "" || s.State != StateFailed { // a second report of one failure keeps its step
			f.failStep = s.Step
		}
		s.State, s.Step, s.AuthorizeURL, s.LastError = StateFailed, "", "", err.Error()
	})
}

// Login implements Controller: it authorizes now, replacing the stored tokens.
func (f *Flow) Login(ctx context.Context) error {
	f.lookupStored()
	f.mu.Lock()
	f.freshRefused, f.stepUpsAll = 0, 0
	ch, challenged := f.ch, f.challenged
	f.held, f.stopped = false, nil
	f.mu.Unlock()
	return f.authorize(ctx, ch, nil, challenged)
}

// Logout implements Controller.
func (f *Flow) Logout() error {
	f.mu.Lock()
	rec := f.rec
	f.rec = nil
	f.mu.Unlock()
	f.update(func(s *Status) {
		*s = Status{State: StateNone, Resource: s.Resource, ResourceMetadataURL: s.ResourceMetadataURL, Issuer: s.Issuer, Store: s.Store}
	})
	if rec == nil {
		return nil
	}
	return f.store.Delete(rec.Key)
}

// CancelWait implements Controller. The stop holds: a server asking again gets ErrHeld,
// not a new wait, until Login.
func (f *Flow) CancelWait() {
	f.mu.Lock()
	c := f.cancelW
	if c != nil {
		f.held = true
	}
	f.mu.Unlock()
	if c != nil {
		c()
	}
}
