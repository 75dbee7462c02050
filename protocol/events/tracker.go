package events

import (
	"strings"
	"sync"

	"github.com/mcpscope/mcpscope/protocol"
)

// seenBound is how many eventIds a Tracker remembers for duplicate detection.
const seenBound = 4096

// Tracker follows one subscription (one poll loop, push stream or webhook subscription):
// it checks each occurrence against the type's payloadSchema, flags an eventId seen
// before, truncated, and a cursor that changes its mind about replay. Safe for concurrent
// use. Bounded: it remembers the last seenBound eventIds.
type Tracker struct {
	typ Type

	mu        sync.Mutex
	schema    *Schema
	schemaErr error
	compiled  bool
	seen      map[string]bool
	order     []string
	replay    int     // 0 unknown, 1 non-null cursors, -1 null cursors
	last      *string // the latest cursor seen
	count     int     // occurrences seen
	dups      int     // duplicates seen
}

// Last is the latest cursor the subscription received (nil: null, or none yet): the one to
// resume from.
func (t *Tracker) Last() *string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.last
}

// Counts are the occurrences seen and how many of them were duplicates.
func (t *Tracker) Counts() (occurrences, duplicates int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.count, t.dups
}

// NewTracker starts following a subscription to typ.
func NewTracker(typ Type) *Tracker {
	return &Tracker{typ: typ, seen: map[string]bool{}}
}

// Type is the event type followed.
func (t *Tracker) Type() Type { return t.typ }

// SchemaError is why the payloadSchema could not be compiled (nil when it was, or there is
// none yet).
func (t *Tracker) SchemaError() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.compileLocked()
	return t.schemaErr
}

func (t *Tracker) compileLocked() {
	if t.compiled {
		return
	}
	t.compiled = true
	if len(t.typ.PayloadSchema) == 0 {
		return
	}
	t.schema, t.schemaErr = Compile(t.typ.PayloadSchema)
}

// Occurrence checks one delivered occurrence (not its cursor, which poll carries at the
// result's level: push and webhook callers pass it to Position) and appends what it finds to o.Findings (which
// already holds its shape findings). It returns the findings it added.
func (t *Tracker) Occurrence(o *Occurrence) []protocol.Finding {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.compileLocked()
	t.count++
	var out []protocol.Finding
	if o.Name != "" && t.typ.Name != "" && o.Name != t.typ.Name {
		out = append(out, protocol.NewFinding(protocol.FindEventsShape,
			"occurrence %s names event type %s on a subscription to %s", o.EventID, o.Name, t.typ.Name))
	}
	if t.schema != nil && o.Data != nil {
		if probs := t.schema.Validate(o.Data); len(probs) > 0 {
			msgs := make([]string, len(probs))
			for i, p := range probs {
				msgs[i] = p.String()
			}
			out = append(out, protocol.NewFinding(protocol.FindEventsPayload,
				"occurrence %s: data fails %s's payloadSchema: %s", o.EventID, t.typ.Name, strings.Join(msgs, "; ")))
		}
	}
	if o.EventID != "" {
		if t.seen[o.EventID] {
			t.dups++
			out = append(out, protocol.NewFinding(protocol.FindEventsDuplicate,
				"eventId %s was delivered before on this subscription", o.EventID))
		} else {
			t.seen[o.EventID] = true
			t.order = append(t.order, o.EventID)
			if len(t.order) > seenBound {
				delete(t.seen, t.order[0])
				t.order = t.order[1:]
			}
		}
	}
	o.Findings = append(o.Findings, out...)
	return out
}

// Position checks a cursor the subscription received outside an occurrence (a poll result,
// notifications/events/active or heartbeat, a subscribe result, a gap envelope) and the
// truncated flag beside it; where names the message. It returns the findings.
func (t *Tracker) Position(cursor *string, truncated bool, where string) []protocol.Finding {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.cursorLocked(cursor, truncated, where)
}

func (t *Tracker) cursorLocked(cursor *string, truncated bool, where string) []protocol.Finding {
	var out []protocol.Finding
	now := -1
	if cursor != nil {
		now = 1
	}
	if t.replay != 0 && now != t.replay {
		was := "non-null cursors"
		if t.replay < 0 {
			was = "null cursors"
		}
		out = append(out, protocol.NewFinding(protocol.FindEventsCursor,
			"%s carries cursor %s after %s: an event type should either always replay or never", where, CursorText(cursor), was))
	}
	t.replay = now
	t.last = cursor
	if truncated {
		if cursor == nil {
			out = append(out, protocol.NewFinding(protocol.FindEventsCursor,
				"%s says truncated: true with a null cursor: a type without replay has no position to skip past", where))
		}
		out = append(out, protocol.NewFinding(protocol.FindEventsTruncated,
			"%s: truncated: true, events were skipped; delivery resumes at cursor %s", where, CursorText(cursor)))
	}
	return out
}
