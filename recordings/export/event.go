package export

import (
	"encoding/base64"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/secret"
)

// Event is one event as the exporters read it: the recording's JSON form of the event,
// masked, with what a recording line adds to it.
type Event struct {
	session.EventJSON
	MonoNS   int64  `json:"mono_ns"`
	Gen      int    `json:"gen,omitempty"`
	Exchange uint64 `json:"exchange,omitempty"`
	SSEEvent string `json:"sse_event,omitempty"`

	frame *protocol.Frame // the masked frame decoded, for frame events
}

// FromEvent makes the exporters' form of e: its JSON form masked with m (a nil or "off"
// masker masks nothing), mono its time since the first event, gen its session's number.
func FromEvent(e *session.Event, mono time.Duration, gen int, m *secret.Masker) *Event {
	j := e.JSON()
	if m != nil {
		j.Mask(m)
	}
	return &Event{EventJSON: j, MonoNS: int64(mono), Gen: gen, Exchange: e.Recv.Exchange, SSEEvent: e.Recv.SSEEvent}
}

// Raw is the frame's bytes (masked); nil for events that are not frames.
func (e *Event) Raw() []byte {
	if e.EventJSON.Raw != nil {
		return []byte(*e.EventJSON.Raw)
	}
	if e.RawBase64 != "" {
		b, _ := base64.StdEncoding.DecodeString(e.RawBase64)
		return b
	}
	return nil
}

// Frame is the masked frame decoded; nil for events that are not frames.
func (e *Event) Frame() *protocol.Frame {
	if e.Kind != "frame" {
		return nil
	}
	if e.frame == nil {
		e.frame = protocol.Decode(e.Raw())
	}
	return e.frame
}

// Out reports whether the frame went to the server.
func (e *Event) Out() bool { return e.Dir == "out" }

// Source is a recording opened for export: its header and its events in order.
type Source struct {
	Header recordings.Header
	r      *recordings.Reader
	m      *secret.Masker
	// Skipped counts the lines that could not be read as events (they are left out).
	Skipped int
}

// Open opens a recording for export; m masks what is exported (the recording is masked
// already unless it was made with --no-redact; m masks it again, and a recording made
// with --no-redact is masked for export unless m is off).
func Open(path string, m *secret.Masker) (*Source, error) {
	r, err := recordings.Open(path)
	if err != nil {
		return nil, err
	}
	return &Source{Header: r.Header(), r: r, m: m}, nil
}

// Each calls fn with every event of the recording in order, until fn returns an error.
// Lines that are not events are counted in Skipped.
func (s *Source) Each(fn func(*Event) error) error {
	for i := 0; i < s.r.Len(); i++ {
		en, err := s.r.Entry(i)
		if err != nil {
			s.Skipped++
			continue
		}
		if err := fn(FromEvent(en.Event, en.Mono, en.Gen, s.m)); err != nil {
			return fmt.Errorf("line %d: %w", en.Line, err)
		}
	}
	return nil
}

// Close closes the recording.
func (s *Source) Close() error { return s.r.Close() }
