package recordings

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// answer is one recorded answer to a server request.
type answer struct {
	result json.RawMessage
	err    *session.RPCError
}

// Responder answers a live server's requests with the answers recorded for requests of the
// same method and params (params' _meta ignored). Several recorded answers to the same
// request are given in order, the last one repeated. Requests the recording did not answer
// go to Fallback.
type Responder struct {
	Fallback session.Responder

	mu      sync.Mutex
	answers map[string][]answer
	next    map[string]int
}

// NewResponder collects the recorded answers to the server's requests: JSON-RPC
// server→client requests and the input requests of 2026-07-28 input_required results.
func NewResponder(t *Transcript, fallback session.Responder) *Responder {
	r := &Responder{Fallback: fallback, answers: map[string][]answer{}, next: map[string]int{}}
	for _, e := range t.Entries {
		ev := e.Event
		if ev.Kind != session.EvFrame || ev.Dir != protocol.ServerToClient || ev.Frame.Kind != protocol.KindRequest {
			continue
		}
		resp := t.ResponseTo(ev.Seq)
		if resp == nil || resp.Event.Dir != protocol.ClientToServer {
			continue
		}
		f := resp.Event.Frame
		a := answer{result: f.Result}
		if f.Kind == protocol.KindError && f.Error != nil {
			a = answer{err: &session.RPCError{Code: f.Error.Code, Message: f.Error.Message, Data: f.Error.Data}}
		}
		k := ev.Frame.Method + " " + paramsKey(ev.Frame.Params)
		r.answers[k] = append(r.answers[k], a)
	}
	r.addInputAnswers(t)
	return r
}

// addInputAnswers pairs each input request of an input_required result with the answer the
// retry carried in inputResponses.
func (r *Responder) addInputAnswers(t *Transcript) {
	for _, chain := range t.chains {
		for i := 1; i < len(chain); i++ {
			prev := t.ResponseTo(chain[i-1])
			retry := t.bySeq[chain[i]]
			if prev == nil || retry == nil || prev.Event.Frame.Kind != protocol.KindResult {
				continue
			}
			var ir struct {
				InputRequests map[string]struct {
					Method string          `json:"method"`
					Params json.RawMessage `json:"params"`
				} `json:"inputRequests"`
			}
			var rp struct {
				InputResponses map[string]json.RawMessage `json:"inputResponses"`
			}
			if json.Unmarshal(prev.Event.Frame.Result, &ir) != nil || json.Unmarshal(retry.Event.Frame.Params, &rp) != nil {
				continue
			}
			for key, in := range ir.InputRequests {
				if res, ok := rp.InputResponses[key]; ok {
					k := in.Method + " " + paramsKey(in.Params)
					r.answers[k] = append(r.answers[k], answer{result: res})
				}
			}
		}
	}
}

// Respond implements session.Responder.
func (r *Responder) Respond(ctx context.Context, req *session.ServerRequest) (json.RawMessage, *session.RPCError) {
	k := req.Method + " " + paramsKey(req.Params)
	r.mu.Lock()
	list := r.answers[k]
	var a answer
	found := len(list) > 0
	if found {
		i := min(r.next[k], len(list)-1)
		a = list[i]
		r.next[k] = i + 1
	}
	r.mu.Unlock()
	if found {
		return a.result, a.err
	}
	if r.Fallback == nil {
		return nil, &session.RPCError{Code: protocol.MethodNotFound, Message: "no recorded answer to " + req.Method}
	}
	return r.Fallback.Respond(ctx, req)
}
