package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mcpscope/mcpscope/protocol"
)

// streamHeartbeat is how often a push stream sends notifications/events/heartbeat when
// nothing else is sent (the extension asks for at least every 30 seconds).
const streamHeartbeat = 10 * time.Second

// The demo serves events/stream itself, on both transports, because a push stream is a
// request whose notifications belong to it: on stdio they are lines of stdout carrying the
// request's id in _meta, on Streamable HTTP the data frames of the POST's own SSE response.
// The SDK beneath the demo has no way to send notifications it does not know.

// streamRequest is an events/stream request as it arrives.
type streamRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params subscription    `json:"params"`
}

// asStreamRequest reads line as an events/stream request; ok is false for anything else.
func asStreamRequest(line []byte) (streamRequest, bool) {
	if !bytes.Contains(line, []byte(`"events/stream"`)) {
		return streamRequest{}, false
	}
	var r streamRequest
	if json.Unmarshal(line, &r) != nil || r.Method != "events/stream" || len(r.ID) == 0 || string(r.ID) == "null" {
		return streamRequest{}, false
	}
	return r, true
}

// note builds one notifications/events/* message of the stream whose request id is id.
func note(kind string, id json.RawMessage, params map[string]any) []byte {
	params["_meta"] = map[string]any{protocol.MetaSubscriptionID: id}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/events/" + kind, "params": params})
	return b
}

// errorResponse is the JSON-RPC error answering request id.
func errorResponse(id json.RawMessage, err error) []byte {
	var rpc *jsonrpc.Error
	if !errors.As(err, &rpc) {
		rpc = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": rpc})
	return b
}

// runStream serves one push subscription until ctx ends or send fails: the confirmation,
// then each occurrence as it happens, and a heartbeat when quiet. A subscription that is
// refused gets its error response and no stream.
func (d *demo) runStream(ctx context.Context, req streamRequest, send func([]byte) error) {
	e, args, err := resolve(req.Params, "push")
	now := time.Now()
	var from int64
	var truncated bool
	if err == nil {
		from, truncated, err = d.events.startAfter(e, req.Params.Cursor, req.Params.MaxAgeMs, now)
	}
	if err != nil {
		d.log.printf("events/stream %s refused: %v", req.Params.Name, err)
		_ = send(errorResponse(req.ID, err))
		return
	}
	d.log.printf("events/stream %s opened (request %s)", e.name, req.ID)
	defer d.log.printf("events/stream %s closed (request %s)", e.name, req.ID)
	if send(note("active", req.ID, map[string]any{"cursor": d.events.cursor(e, from-1), "truncated": truncated})) != nil {
		return
	}
	next, quietSince := from, now
	tick := time.NewTicker(e.period / 4)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now = <-tick.C:
		}
		head := d.events.head(e, now)
		for ; next <= head; next++ {
			o := d.events.occurrence(e, next, args)
			if o == nil {
				continue
			}
			if send(note("event", req.ID, o)) != nil {
				return
			}
			quietSince = now
		}
		if now.Sub(quietSince) >= streamHeartbeat {
			if send(note("heartbeat", req.ID, map[string]any{"cursor": d.events.cursor(e, head)})) != nil {
				return
			}
			quietSince = now
		}
	}
}

// stdioStreams runs the push streams of one stdio session, each until the client cancels
// it (notifications/cancelled naming its id) or the session ends.
type stdioStreams struct {
	d   *demo
	ctx context.Context
	out io.Writer
	mu  sync.Mutex
	run map[string]context.CancelFunc
}

// take serves line if it is an events/stream request, and stops a stream a
// notifications/cancelled names (the line still goes on to the server). It reports whether
// it took the line.
func (s *stdioStreams) take(line []byte) bool {
	if id, ok := cancelledID(line); ok {
		s.mu.Lock()
		if stop := s.run[string(id)]; stop != nil {
			stop()
		}
		s.mu.Unlock()
		return false
	}
	req, ok := asStreamRequest(line)
	if !ok {
		return false
	}
	ctx, stop := context.WithCancel(s.ctx)
	s.mu.Lock()
	if s.run == nil {
		s.run = map[string]context.CancelFunc{}
	}
	s.run[string(req.ID)] = stop
	s.mu.Unlock()
	go func() {
		defer func() {
			s.mu.Lock()
			delete(s.run, string(req.ID))
			s.mu.Unlock()
			stop()
		}()
		s.d.runStream(ctx, req, func(b []byte) error {
			_, err := s.out.Write(append(b, '\n'))
			return err
		})
	}()
	return true
}

// cancelledID is the requestId of a notifications/cancelled line.
func cancelledID(line []byte) (json.RawMessage, bool) {
	if !bytes.Contains(line, []byte(`"notifications/cancelled"`)) {
		return nil, false
	}
	var n struct {
		Method string `json:"method"`
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &n) != nil || n.Method != "notifications/cancelled" || len(n.Params.RequestID) == 0 {
		return nil, false
	}
	return n.Params.RequestID, true
}

// serveEventStream answers a Streamable HTTP POST of one events/stream request with an SSE
// response that carries the stream, until the client aborts it. It reports whether it
// answered; any other request is left, body intact, to the SDK.
func (d *demo) serveEventStream(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodPost || r.Body == nil {
		return false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return false
	}
	req, ok := asStreamRequest(bytes.TrimSpace(body))
	if !ok {
		return false
	}
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if flusher != nil {
		flusher.Flush()
	}
	d.runStream(r.Context(), req, func(b []byte) error {
		if _, err := w.Write(append(append([]byte("event: message\ndata: "), b...), '\n', '\n')); err != nil {
			return err
		}
		if flusher != nil {
			flusher.Flush()
		}
		return r.Context().Err()
	})
	return true
}
