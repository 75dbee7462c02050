package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/session/transport/sse"
)

// stream is the state of one logical SSE stream across reconnections.
type stream struct {
	purpose   string // "post" or "listen"
	want      []byte // id of the request whose response completes a POST stream
	stateless bool   // 2026-07-28: streams cannot be resumed

	answered      bool
	settled       func() // ends the stream's count in StreamableHTTP.settle, once answered
	lastID        string // last event ID seen, for Last-Event-ID
	retry         time.Duration
	hasRetry      bool
	notedComments bool

	quit     chan struct{} // closed by abandon: the request is no longer awaited
	quitOnce sync.Once
}

// newPostStream is the response stream of the request with id want.
func newPostStream(want []byte, stateless bool) *stream {
	return &stream{purpose: "post", want: want, stateless: stateless, quit: make(chan struct{})}
}

// abandon says the stream's request is no longer awaited: it is not resumed.
func (st *stream) abandon() {
	if st.quit != nil {
		st.quitOnce.Do(func() { close(st.quit) })
	}
}

// abandoned reports whether abandon was called.
func (st *stream) abandoned() bool {
	select {
	case <-st.quit: // a nil channel (the standalone stream) is never ready
		return true
	default:
		return false
	}
}

// describe names the stream in notes.
func (st *stream) describe() string {
	if st.purpose == "listen" {
		return "standalone GET stream"
	}
	return fmt.Sprintf("SSE stream of request %s", st.want)
}

// runStream reads st from resp, then reconnects with GET and Last-Event-ID while the
// stream is still owed something: a POST stream until its response arrived, the
// standalone stream until Close. Consecutive failed attempts are bounded.
func (s *StreamableHTTP) runStream(st *stream, resp *response) {
	defer s.wg.Done()
	defer func() {
		if st.purpose == "listen" {
			s.mu.Lock()
			s.listening = false
			s.mu.Unlock()
		}
		s.posts.remove(st)
	}()
	limit := s.core.opts.ReconnectLimit
	failures := 0
	unreached := false // the last reconnection got no answer at all
	for {
		var why string
		if resp != nil {
			frames, err := s.readStream(st, resp)
			resp.release()
			if st.settled != nil {
				st.settled()
				st.settled = nil
			}
			if s.life.Err() != nil {
				return
			}
			if frames > 0 {
				failures = 0
			}
			why = "ended"
			if err != nil && !errors.Is(err, io.EOF) {
				why = "failed: " + err.Error()
			}
		}
		if st.purpose == "post" && st.answered {
			return
		}
		if st.abandoned() {
			s.core.sink.Note(Note{Kind: "stream-end", Text: fmt.Sprintf(
				"%s %s; the request was cancelled, so the stream is not resumed", st.describe(), whyOr(why))})
			return
		}
		switch {
		case st.stateless:
			s.core.sink.Note(Note{Kind: "stream-end", Text: fmt.Sprintf(
				"%s %s before its response; 2026-07-28 streams cannot be resumed", st.describe(), why)})
			return
		case st.purpose == "post" && st.lastID == "":
			s.core.sink.Note(Note{Kind: "stream-end", Text: fmt.Sprintf(
				"%s %s before its response; the server sent no event id, so it cannot be resumed", st.describe(), why)})
			return
		case failures >= limit:
			s.core.sink.Note(Note{Kind: "stream-end", Text: fmt.Sprintf(
				"%s: giving up after %d reconnection attempts", st.describe(), failures)})
			if unreached {
				s.core.link.set(s.core.sink, LinkUnreachable)
			}
			return
		}
		failures++
		if resp == nil || strings.HasPrefix(why, "failed") {
			// A failure, not a stream the server ended: the server may be gone.
			s.core.link.set(s.core.sink, LinkReconnecting(failures, limit))
		}
		delay := retryDelay(st.retry, st.hasRetry)
		if why != "" {
			why = " " + why
		}
		s.core.sink.Note(Note{Kind: "reconnect", Text: fmt.Sprintf("%s%s; reconnecting in %v with Last-Event-ID %q (attempt %d of %d)",
			st.describe(), why, delay, st.lastID, failures, limit)})
		if !waitDelayOr(s.life, st.quit, delay) {
			if st.abandoned() && s.life.Err() == nil {
				s.core.sink.Note(Note{Kind: "stream-end", Text: st.describe() + ": the request was cancelled; not reconnecting"})
			}
			return
		}
		var fatal bool
		resp, fatal = s.reconnect(st)
		if fatal {
			return
		}
		unreached = resp == nil
	}
}

// whyOr is why a stream read ended, or that no read was under way.
func whyOr(why string) string {
	if why == "" {
		return "was not connected"
	}
	return why
}

// waitDelayOr is waitDelay that also ends, early, when quit closes (nil: never).
func waitDelayOr(ctx context.Context, quit <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-quit:
		return false
	}
}

// reconnect GETs the stream again. It returns the new stream, or nil and whether to stop
// trying (the server refused; a network error is worth another attempt).
func (s *StreamableHTTP) reconnect(st *stream) (*response, bool) {
	h := http.Header{}
	h.Set("Accept", mediaEventStream)
	purpose := "listen"
	if st.lastID != "" {
		h.Set(hdrLastEventID, st.lastID)
		purpose = "resume"
	}
	sent := s.streamHeaders(h)
	req := request{purpose: purpose, method: http.MethodGet, url: s.url, header: h, retry: true}
	resp, err := s.core.do(s.life, s.life, req)
	if err != nil {
		return nil, s.life.Err() != nil
	}
	if resp.StatusCode == http.StatusNotFound && sent != "" {
		s.expire(sent)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 || mediaType(resp.Header.Get("Content-Type")) != mediaEventStream {
		head, _, _, _ := readBody(resp.Body, errorBodyHead)
		resp.release()
		s.core.sink.Note(Note{Kind: "stream-end", Text: fmt.Sprintf("%s: reconnecting answered %d (%s): %s; not retrying",
			st.describe(), resp.StatusCode, resp.Header.Get("Content-Type"), bodyHead(head))})
		return nil, true
	}
	resp.detach()
	return resp, false
}

// readStream reports the events of one SSE response and returns how many frames it
// carried and why it ended.
func (s *StreamableHTTP) readStream(st *stream, resp *response) (int, error) {
	return readEvents(s.core, resp, func(ev *sse.Event, lastID string) bool {
		if ev.HasID {
			st.lastID = lastID
		}
		if ev.HasRetry {
			st.retry, st.hasRetry = ev.Retry, true
		}
		if ev.HasData && ev.Data != "" && st.want != nil && !st.answered && answers([]byte(ev.Data), st.want) {
			st.answered = true
			if st.purpose == "post" {
				st.settled = s.settle.begin() // until the server ends the stream
			}
		}
		if len(ev.Comments) > 0 && !ev.HasData && !st.notedComments {
			st.notedComments = true
			s.core.sink.Note(Note{Kind: "keep-alive", Text: fmt.Sprintf("%s: server sends SSE comments (%q); later ones on this stream are not noted",
				st.describe(), ev.Comments[0])})
		}
		return true
	})
}

// readEvents parses the SSE body of resp, reports each event with data as a frame and
// calls each (when not nil) for every event first; each returning false stops reading. It
// returns how many frames were reported and why reading ended.
func readEvents(c *httpCore, resp *response, each func(ev *sse.Event, lastID string) bool) (int, error) {
	p := sse.NewParser(resp.Body, int(min(c.maxFrame, int64(maxInt))))
	frames := 0
	for {
		ev, err := p.Next()
		if err != nil {
			if inc := bytes.TrimSpace(p.Incomplete()); len(inc) > 0 {
				c.sink.Note(Note{Kind: "incomplete-event", Text: fmt.Sprintf(
					"stream ended inside an SSE event; %d bytes discarded: %s", len(p.Incomplete()), bodyHead(inc))})
			}
			return frames, err
		}
		if each != nil && !each(&ev, p.LastEventID()) {
			return frames, nil
		}
		if !ev.HasData || ev.Data == "" {
			continue
		}
		info := RecvInfo{Via: "sse", Exchange: resp.ex, SSEEvent: ev.Type, Size: int64(len(ev.Data)), Truncated: ev.Truncated,
			SessionChanged: resp.sessionChanged}
		if ev.HasID {
			info.SSEID = ev.ID
		}
		if ev.Truncated {
			info.Size = ev.Size // the event block's size: the data's full size is not known
		}
		c.sink.Received([]byte(ev.Data), info)
		frames++
	}
}

const maxInt = int(^uint(0) >> 1)

// Listen opens the standalone GET stream on which a 2025-03-26…2025-11-25 server may send
// requests and notifications unrelated to any POST. It returns once the server answered.
// A server without one (405; also 404, 400 and 409, explained in a Note) is not an error.
// The stream is read until Close and reopened (with Last-Event-ID when the server sent
// event ids) after the server's retry delay when it ends. 2026-07-28 has no GET stream:
// long-lived notifications come on the response stream of a subscriptions/listen request,
// so in stateless mode Listen only notes that.
func (s *StreamableHTTP) Listen(ctx context.Context) error {
	if err := s.ready(); err != nil {
		return err
	}
	s.mu.Lock()
	stateless, already := s.stateless, s.listening
	if !stateless && !already {
		s.listening = true
	}
	s.mu.Unlock()
	switch {
	case stateless:
		s.core.sink.Note(Note{Kind: "listen", Text: "2026-07-28 has no standalone GET stream; server notifications arrive on the response stream of a subscriptions/listen request"})
		return nil
	case already:
		return nil
	}
	opened := false
	defer func() {
		if !opened {
			s.mu.Lock()
			s.listening = false
			s.mu.Unlock()
		}
	}()
	h := http.Header{}
	h.Set("Accept", mediaEventStream)
	sent := s.streamHeaders(h)
	req := request{purpose: "listen", method: http.MethodGet, url: s.url, header: h}
	resp, err := s.core.do(s.life, ctx, req)
	if err != nil {
		return err
	}
	status, mt := resp.StatusCode, mediaType(resp.Header.Get("Content-Type"))
	if status >= 200 && status <= 299 && mt == mediaEventStream {
		resp.detach()
		opened = s.spawn(resp, func() { s.runStream(&stream{purpose: "listen"}, resp) })
		if opened {
			s.core.sink.Note(Note{Kind: "stream-open", Text: "standalone GET stream open: the server may send requests and notifications on it"})
		}
		return nil
	}
	defer resp.release()
	head, _, _, _ := readBody(resp.Body, errorBodyHead)
	if status == http.StatusNotFound && sent != "" {
		s.expire(sent)
		return nil
	}
	if why, ok := listenRefusals[status]; ok {
		s.core.sink.Note(Note{Kind: "listen", Text: fmt.Sprintf("GET stream not opened (%d %s): %s", status, http.StatusText(status), why)})
		return nil
	}
	if status >= 200 && status <= 299 {
		s.core.sink.Note(Note{Kind: "listen", Text: fmt.Sprintf("GET answered %d with Content-Type %q, not an event stream; no standalone stream", status, resp.Header.Get("Content-Type"))})
		return nil
	}
	return s.core.statusError(req, resp, head)
}

// listenRefusals explain the answers that mean "no standalone stream here".
var listenRefusals = map[int]string{
	http.StatusMethodNotAllowed: "the server offers no standalone stream; its messages arrive only on POST responses",
	http.StatusNotFound:         "the server has no GET handler at this URL; its messages arrive only on POST responses",
	http.StatusBadRequest:       "the server refused the GET (often: no session yet, send initialize first)",
	http.StatusConflict:         "the server already has a standalone stream open for this session",
}
