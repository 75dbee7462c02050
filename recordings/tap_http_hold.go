package recordings

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/fault"
)

// Breakpoints on the HTTP tap. A POST a breakpoint holds keeps its exchange waiting, and a
// JSON response its answer, until the user decides (the host's own timeout keeps
// running); an event is held out of its stream, which goes on. Forward sends the message
// (edited or not); drop is what the drop rule does; answer answers the sender in the
// other side's place (the host: a JSON body; the server: a POST).

// holdNote records a hold note.
func (f *httpFaults) holdNote(text string) { f.p.t.note(fault.HoldNoteKind, text) }

// holdWait holds msg until the user decides or ctx ends. held is false when the bounds
// were reached (pass the message on); err is ctx's when the host went away first.
func (f *httpFaults) holdWait(ctx context.Context, dir protocol.Direction, msg []byte, v fault.Verdict) (d fault.Decision, held bool, err error) {
	decided := make(chan fault.Decision, 1)
	if !f.eng.Hold(dir, msg, v, false, f, f.holdNote, func(d fault.Decision) error { decided <- d; return nil }) {
		return d, false, nil
	}
	select {
	case d = <-decided:
		return d, true, nil
	case <-ctx.Done():
		return d, true, ctx.Err()
	}
}

// holdRequest holds a POST body; it reports whether r (its body perhaps edited) goes on.
func (f *httpFaults) holdRequest(w http.ResponseWriter, r *http.Request, ex *exchange, msg []byte, v fault.Verdict) bool {
	d, held, err := f.holdWait(r.Context(), protocol.ClientToServer, msg, v)
	switch {
	case !held:
		return true
	case err != nil:
		return false
	case d.Verb == fault.Forward:
		if d.Raw != nil {
			msg = d.Raw
			r.ContentLength = int64(len(d.Raw))
			r.Body = io.NopCloser(bytes.NewReader(d.Raw))
		}
		// What goes on passes the rules, as the bytes delivered.
		return f.applyRequest(w, r, ex, msg, f.eng.JudgeRules(protocol.ClientToServer, msg, time.Now()))
	case d.Verb == fault.Answer:
		f.answerHost(w, r, ex, d.Raw)
		return false
	}
	f.dropRequest(w, r, ex, msg)
	return false
}

// holdResponse holds a JSON response body (head, as it came); it returns an error when
// the host gets no answer.
func (f *httpFaults) holdResponse(resp *http.Response, head []byte, rest io.ReadCloser, msg []byte, v fault.Verdict) error {
	ctx := resp.Request.Context()
	d, held, err := f.holdWait(ctx, protocol.ServerToClient, msg, v)
	switch {
	case !held:
		resp.Body = readCloser{bytes.NewReader(head), rest}
		return nil
	case err != nil:
		return err
	case d.Verb == fault.Forward:
		if d.Raw != nil {
			head, msg = d.Raw, d.Raw
			resp.ContentLength = int64(len(d.Raw))
			resp.Header.Del("Content-Length")
		}
		// What goes on passes the rules, as the bytes delivered.
		return f.applyResponse(resp, head, rest, msg, f.eng.JudgeRules(protocol.ServerToClient, msg, time.Now()))
	case d.Verb == fault.Answer:
		go f.answerServer(resp.Request, d.Raw)
	}
	<-ctx.Done() // dropped: the host waits until it gives up
	return errDropped
}

// answerHost answers the host's POST in the server's place.
func (f *httpFaults) answerHost(w http.ResponseWriter, r *http.Request, ex *exchange, answer []byte) {
	h := http.Header{"Content-Type": {"application/json"}}
	f.p.exchanged(ex, r.URL.String(), &http.Response{StatusCode: http.StatusOK, Header: h}, "")
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(answer)
}

// dropRequest forwards nothing of a POST: a request stays unanswered until the host gives
// up; a notification or a response is accepted (202), as the server would.
func (f *httpFaults) dropRequest(w http.ResponseWriter, r *http.Request, ex *exchange, msg []byte) {
	if m := protocol.Decode(msg); m.Kind == protocol.KindRequest && !m.ID.IsZero() {
		<-r.Context().Done()
		return
	}
	f.p.exchanged(ex, r.URL.String(), &http.Response{StatusCode: http.StatusAccepted, Header: http.Header{}}, "")
	w.WriteHeader(http.StatusAccepted)
}
