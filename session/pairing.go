package session

import (
	"encoding/json"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
)

// The session is where frames are paired, once: consumers (the view's history, the
// recording and its index) read Event.Corr instead of pairing again. Tracked requests are
// paired in matchResponseLocked; this file covers what is sent without tracking: the
// request members of a batch sent raw, which no caller waits for, and the
// notifications/cancelled mcpscope sends, whose Corr names the request they cancel.

// maxBatchMembers bounds the batch members remembered for pairing; past it the oldest
// memory is dropped (their answers then carry an unknown-id finding).
const maxBatchMembers = 4096

// batchMember is a request member of a batch mcpscope sent.
type batchMember struct {
	seq    uint64 // the Seq of the batch's event
	method string
	sent   time.Time
}

// corrUntrackedLocked fills the Corr of an outgoing notifications/cancelled with the
// request it names (pending, recently finished, or a member of a batch), whoever sent it:
// the session giving up on a request, or a notification typed by hand.
func (s *Session) corrUntrackedLocked(f *protocol.Frame, corr *Correlation) {
	if f.Kind != protocol.KindNotification || f.Method != "notifications/cancelled" || corr.RequestSeq != 0 {
		return
	}
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(f.Params, &p) != nil || len(p.RequestID) == 0 {
		return
	}
	key := protocol.ID{Raw: p.RequestID}.Key()
	if q := s.pending[key]; q != nil {
		corr.RequestSeq = q.seq
	} else if fin, ok := s.finished.get(key); ok {
		corr.RequestSeq = fin.seq
	} else if b, ok := s.batchOut[key]; ok {
		corr.RequestSeq = b.seq
	}
}

// rememberBatchLocked notes the request members of batch ev (sent by mcpscope) so that
// their responses pair with it.
func (s *Session) rememberBatchLocked(ev *Event) {
	f := ev.Frame
	if f.Kind != protocol.KindBatch {
		return
	}
	for _, m := range f.Batch {
		if m.Kind != protocol.KindRequest {
			continue
		}
		if s.batchOut == nil || len(s.batchOut) >= maxBatchMembers {
			s.batchOut = map[string]batchMember{}
		}
		s.batchOut[m.ID.Key()] = batchMember{seq: ev.Seq, method: m.Method, sent: ev.Time}
	}
}

// matchBatchLocked pairs response m with the batch member it answers, if any. The Corr of
// the frame (m, or the batch m is a member of) names the batch; a response on its own
// also gets the member's method.
func (s *Session) matchBatchLocked(m *protocol.Frame, corr *Correlation, at time.Time, top bool) bool {
	key := m.ID.Key()
	b, ok := s.batchOut[key]
	if !ok {
		return false
	}
	delete(s.batchOut, key)
	if corr.RequestSeq == 0 {
		corr.RequestSeq, corr.Latency = b.seq, at.Sub(b.sent)
		if top {
			corr.Method = b.method
		}
	}
	return true
}
