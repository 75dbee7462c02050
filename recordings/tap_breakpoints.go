package recordings

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/session/fault"
)

// TapBreakpoints are a live tap's breakpoints as a viewer sets them (fault.Control): the
// list is kept here and sent whole to the tap on each change (by a goroutine: Add, Enable
// and Remove do no I/O); what the tap holds is learnt from the hold notes of its event
// stream (holdsLine), read by Live.Next. Decide and ContinueAll write to the tap and wait
// until its stream says the messages are no longer held.
type TapBreakpoints struct {
	l     *Live
	local *fault.Breakpoints

	mu      sync.Mutex
	held    []fault.Held
	changed chan struct{} // closed and replaced when held changes
	pending []byte        // the latest list, not yet written
	writing bool          // a goroutine is writing pending

	wmu sync.Mutex // one line written at a time
}

var _ fault.Control = (*TapBreakpoints)(nil)

// decideWait bounds how long Decide waits for the tap to say the message was decided.
const decideWait = 10 * time.Second

// Breakpoints is the tap's breakpoints, set through this connection.
func (l *Live) Breakpoints() *TapBreakpoints { return l.bps }

func newTapBreakpoints(l *Live) *TapBreakpoints {
	return &TapBreakpoints{l: l, local: fault.NewBreakpoints(), changed: make(chan struct{})}
}

// Add adds an enabled breakpoint on query q (refused, with the column of the trouble,
// when q is not understood) and sends the list to the tap.
func (b *TapBreakpoints) Add(q string) (fault.Breakpoint, error) {
	p, err := b.local.Add(q)
	if err == nil {
		b.push()
	}
	return p, err
}

// Enable turns breakpoint id on or off, on the tap too.
func (b *TapBreakpoints) Enable(id int, on bool) {
	b.local.Enable(id, on)
	b.push()
}

// Remove removes breakpoint id, from the tap too.
func (b *TapBreakpoints) Remove(id int) {
	b.local.Remove(id)
	b.push()
}

// List is the breakpoints, in the order they were added.
func (b *TapBreakpoints) List() []fault.Breakpoint { return b.local.List() }

// Held is what the tap holds, as its last hold note said.
func (b *TapBreakpoints) Held() []fault.Held {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]fault.Held(nil), b.held...)
}

// Decide asks the tap to do d with held message id, and waits until the tap's stream says
// it is no longer held.
func (b *TapBreakpoints) Decide(id int, d fault.Decision) error {
	c := controlLine{Op: "decide", ID: id}
	switch d.Verb {
	case fault.Forward:
		c.Verb = "forward"
	case fault.DropIt:
		c.Verb = "drop"
	case fault.Answer:
		c.Verb = "answer"
	}
	if d.Raw != nil {
		s := string(d.Raw)
		c.Raw = &s
	}
	return b.ask(c, func(held []fault.Held) bool {
		for _, h := range held {
			if h.ID == id {
				return false
			}
		}
		return true
	})
}

// ContinueAll asks the tap to forward every held message as it came, and waits until none
// is held.
func (b *TapBreakpoints) ContinueAll() error {
	return b.ask(controlLine{Op: "continue"}, func(held []fault.Held) bool { return len(held) == 0 })
}

// ask writes c and waits until done holds of what the tap holds.
func (b *TapBreakpoints) ask(c controlLine, done func([]fault.Held) bool) error {
	line, err := json.Marshal(c)
	if err != nil {
		return err
	}
	if err := b.write(line); err != nil {
		return fmt.Errorf("tell the tap: %w", err)
	}
	deadline := time.NewTimer(decideWait)
	defer deadline.Stop()
	for {
		b.mu.Lock()
		ok, changed := done(b.held), b.changed
		b.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-changed:
		case <-deadline.C:
			return errors.New("the tap did not say it was done within 10s")
		}
	}
}

// write writes one line to the tap.
func (b *TapBreakpoints) write(line []byte) error {
	b.wmu.Lock()
	defer b.wmu.Unlock()
	b.l.conn.SetWriteDeadline(time.Now().Add(decideWait))
	_, err := b.l.conn.Write(append(line, '\n'))
	return err
}

// push sends the list to the tap, off the caller's goroutine; only the latest list is
// sent when several changes come at once.
func (b *TapBreakpoints) push() {
	list := b.local.List()
	c := controlLine{Op: "breakpoints", Points: make([]controlPoint, 0, len(list))}
	for _, p := range list {
		c.Points = append(c.Points, controlPoint{ID: p.ID, Query: p.Query, Enabled: p.Enabled})
	}
	line, err := json.Marshal(c)
	if err != nil {
		return
	}
	b.mu.Lock()
	b.pending = line
	if b.writing {
		b.mu.Unlock()
		return
	}
	b.writing = true
	b.mu.Unlock()
	go func() {
		for {
			b.mu.Lock()
			line := b.pending
			b.pending = nil
			if line == nil {
				b.writing = false
				b.mu.Unlock()
				return
			}
			b.mu.Unlock()
			_ = b.write(line) // a tap that is gone ends the stream too: the view says so
		}
	}()
}

// update takes what a hold note says the tap holds: the whole list, or the change since
// the previous note (applied by id, so a delta that repeats what a snapshot said is
// harmless).
func (b *TapBreakpoints) update(h *holdsLine) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var held []fault.Held
	if h.Full {
		held = make([]fault.Held, 0, len(h.Held))
		for _, x := range h.Held {
			held = append(held, x.toHeld())
		}
	} else {
		gone := make(map[int]bool, len(h.Gone)+len(h.Added))
		for _, id := range h.Gone {
			gone[id] = true
		}
		for _, x := range h.Added {
			gone[x.ID] = true // replaced by the added one
		}
		held = make([]fault.Held, 0, len(b.held)+len(h.Added))
		for _, x := range b.held {
			if !gone[x.ID] {
				held = append(held, x)
			}
		}
		for _, x := range h.Added {
			held = append(held, x.toHeld())
		}
		slices.SortStableFunc(held, func(a, c fault.Held) int { return cmp.Compare(a.ID, c.ID) })
	}
	b.held = held
	close(b.changed)
	b.changed = make(chan struct{})
}
