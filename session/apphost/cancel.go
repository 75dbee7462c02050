package apphost

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/mcpscope/mcpscope/protocol"
)

// errAppCancelled ends the context of a question the app cancelled.
var errAppCancelled = errors.New("the app cancelled its request")

// askContext is the context of the question the app asked with request id: it ends with
// the host, or when the app cancels the request (notifications/cancelled). done forgets it.
func (h *Host) askContext(id protocol.ID) (ctx context.Context, done func()) {
	ctx, cancel := context.WithCancelCause(h.ctx)
	key := id.Key()
	h.mu.Lock()
	if h.asking == nil {
		h.asking = map[string]context.CancelCauseFunc{}
	}
	h.asking[key] = cancel
	h.mu.Unlock()
	return ctx, func() {
		h.mu.Lock()
		delete(h.asking, key)
		h.mu.Unlock()
		cancel(nil)
	}
}

// appCancelled reports whether the app cancelled the question of ctx: it then gets no
// answer (MCP's cancellation: the receiver does not respond to a cancelled request).
func appCancelled(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), errAppCancelled)
}

// cancelled takes the app's notifications/cancelled: the question it names, if one is
// being put to the user, no longer waits.
func (h *Host) cancelled(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || len(p.RequestID) == 0 {
		return
	}
	h.mu.Lock()
	cancel := h.asking[protocol.ID{Raw: p.RequestID}.Key()]
	h.mu.Unlock()
	if cancel != nil {
		cancel(errAppCancelled)
	}
}
