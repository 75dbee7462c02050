package ui

import (
	"bytes"
	"encoding/json"
	"io"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// listChain gathers the pages of the last complete listing of one kind, walking the
// recording backwards: the last result, then the request it answered (its cursor), then
// the result whose nextCursor was that cursor, and so on to a request without a cursor.
type listChain struct {
	method  string
	pages   [][]json.RawMessage // newest first
	gen     int
	reqSeq  uint64 // the request of the page just taken; 0 while looking for a page
	want    string // nextCursor of the page looked for
	started bool
	done    bool
}

// take looks at one recorded event (walking backwards).
func (c *listChain) take(gen int, ev *session.Event) {
	f := ev.Frame
	switch {
	case c.done || f == nil:
	case f.Kind == protocol.KindResult && ev.Dir == protocol.ServerToClient && ev.Corr.Method == c.method && c.reqSeq == 0:
		var res map[string]json.RawMessage
		if json.Unmarshal(f.Result, &res) != nil {
			return
		}
		var next string
		_ = json.Unmarshal(res["nextCursor"], &next)
		if c.started && next != c.want {
			return
		}
		var items []json.RawMessage
		for k, v := range res {
			if k != "nextCursor" && k != "_meta" && k != "resultType" && len(v) > 0 && v[0] == '[' {
				_ = json.Unmarshal(v, &items)
			}
		}
		c.pages = append(c.pages, items)
		c.started, c.gen, c.reqSeq = true, gen, ev.Corr.RequestSeq
		if c.reqSeq == 0 {
			c.done = true // no request to follow back
		}
	case f.Kind == protocol.KindRequest && ev.Dir == protocol.ClientToServer && c.reqSeq != 0 && ev.Seq == c.reqSeq && gen == c.gen:
		var p struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(f.Params, &p)
		c.reqSeq, c.want = 0, p.Cursor
		c.done = p.Cursor == ""
	}
}

// items are the listing's items in order.
func (c *listChain) items() []json.RawMessage {
	var out []json.RawMessage
	for i := len(c.pages) - 1; i >= 0; i-- {
		out = append(out, c.pages[i]...)
	}
	return out
}

// openListsCmd finds the last listing of each kind in the recording, walking it from the
// end and decoding only the lines that name a list method.
func openListsCmd(r *recordings.Reader) tea.Cmd {
	return func() tea.Msg {
		chains := map[session.ListKind]*listChain{}
		var needles [][]byte
		for _, k := range session.ListKinds {
			m := k.Method()
			chains[k] = &listChain{method: m}
			needles = append(needles, []byte(`"method":"`+m+`"`))
		}
		for i := r.Len() - 1; i >= 0; i-- {
			raw, err := r.Raw(i)
			if err != nil || !containsAny(raw, needles) {
				continue
			}
			e, err := r.Entry(i)
			if err != nil {
				continue
			}
			done := true
			for _, c := range chains {
				c.take(max(1, e.Gen), e.Event)
				done = done && c.done
			}
			if done {
				break
			}
		}
		msg := ListsMsg{Lists: map[session.ListKind][]json.RawMessage{}, Errs: map[session.ListKind]error{}}
		for k, c := range chains {
			if c.started {
				msg.Lists[k] = c.items()
			}
		}
		return msg
	}
}

func containsAny(b []byte, needles [][]byte) bool {
	for _, n := range needles {
		if bytes.Contains(b, n) {
			return true
		}
	}
	return false
}

// recordedInfo is what the session learned from the recorded handshake's answer (the last
// one, as a session that changed era ends with it).
func recordedInfo(hs []*traffic.Entry) session.ServerInfo {
	var info session.ServerInfo
	for _, e := range hs {
		if i, ok := handshakeAnswer(e); ok {
			info = i
		}
	}
	return info
}

// handshakeAnswer reads one handshake entry that is the server's answer (an initialize or
// server/discover result) for the revision its request offered.
func handshakeAnswer(e *traffic.Entry) (session.ServerInfo, bool) {
	f := e.Ev.Frame
	if f == nil || f.Kind != protocol.KindResult || e.Ev.Dir != protocol.ServerToClient {
		return session.ServerInfo{}, false
	}
	var offered protocol.Revision
	if e.Pair != nil && e.Pair.Ev != nil && e.Pair.Ev.Frame != nil {
		offered = session.HandshakeOffer(e.Ev.Corr.Method, e.Pair.Ev.Frame.Params)
	}
	info, err := session.HandshakeInfo(e.Ev.Corr.Method, offered, f.Result)
	return info, err == nil
}

// copyLines writes a new recording at path: r's header line and the lines of the events
// idx, as they are in r. The header's started is the first saved event's time.
func copyLines(r *recordings.Reader, idx []int32, path string) error {
	h := r.Header()
	if len(idx) > 0 {
		if ev, err := r.Event(int(idx[0])); err == nil {
			h.Started = ev.Time
		}
	}
	hb, err := json.Marshal(h)
	if err != nil {
		return err
	}
	return writeNew(path, func(w io.Writer) error {
		bw := newLineWriter(w)
		bw.line(hb)
		for _, i := range idx {
			raw, err := r.Raw(int(i))
			if err != nil {
				return err
			}
			bw.line(raw)
		}
		return bw.flush()
	})
}

// lineWriter buffers lines and keeps the first write error.
type lineWriter struct {
	w   io.Writer
	buf []byte
	err error
}

func newLineWriter(w io.Writer) *lineWriter { return &lineWriter{w: w} }

func (l *lineWriter) line(b []byte) {
	l.buf = append(append(l.buf, b...), '\n')
	if len(l.buf) >= 1<<20 {
		_ = l.flush()
	}
}

func (l *lineWriter) flush() error {
	if l.err == nil && len(l.buf) > 0 {
		_, l.err = l.w.Write(l.buf)
	}
	l.buf = l.buf[:0]
	return l.err
}
