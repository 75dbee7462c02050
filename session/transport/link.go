package transport

import (
	"encoding/json"
	"fmt"
	"sync"
)

// NoteLink is the kind of the Note an HTTP transport sends when what it knows of reaching
// the server changes. Its Text is one of LinkReachable, LinkUnreachable or
// "reconnecting N/M" (LinkReconnecting): short, for a status bar; the notes before it say
// why.
const NoteLink = "link"

// The texts of a NoteLink.
const (
	LinkReachable   = "reachable"
	LinkUnreachable = "unreachable"
)

// LinkReconnecting is the text of a NoteLink while an event stream waits for attempt n of
// limit to reconnect after a failure.
func LinkReconnecting(n, limit int) string { return fmt.Sprintf("reconnecting %d/%d", n, limit) }

// link tracks what an HTTP transport knows of reaching its server: the last word wins (a
// request that got any answer, a request that could not be sent, a stream waiting to
// reconnect, a stream that gave up), and a NoteLink goes out when the text changes. The
// first answer of all is not noted: reachable is what a session assumes.
type link struct {
	mu   sync.Mutex
	text string // "" until the first change: reachable, nothing noted
}

// set records text and notes it when it changed.
func (l *link) set(sink Sink, text string) {
	l.mu.Lock()
	changed := l.text != text && !(l.text == "" && text == LinkReachable)
	l.text = text
	l.mu.Unlock()
	if changed {
		sink.Note(Note{Kind: NoteLink, Text: text})
	}
}

// Abandoner is implemented by a transport that can stop caring for a request the session
// gave up on (cancelled, timed out): Abandon(id) stops resuming its response stream, since
// what the server would send on it is no longer awaited.
type Abandoner interface {
	Abandon(id json.RawMessage)
}

// postStreams are the response streams of requests still awaited, by request id, so that
// Abandon can reach them.
type postStreams struct {
	mu sync.Mutex
	m  map[string]*stream
}

func (p *postStreams) add(st *stream) {
	if len(st.want) == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.m = map[string]*stream{}
	}
	p.m[string(st.want)] = st
}

func (p *postStreams) remove(st *stream) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m[string(st.want)] == st {
		delete(p.m, string(st.want))
	}
}

// abandon marks the stream of request id as no longer awaited, if there is one.
func (p *postStreams) abandon(id json.RawMessage) {
	p.mu.Lock()
	st := p.m[string(id)]
	p.mu.Unlock()
	if st != nil {
		st.abandon()
	}
}
