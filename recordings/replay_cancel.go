package recordings

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// A request of the recording's first session that the recorded client cancelled is paired
// with its notifications/cancelled while the recording is indexed (Transcript.cancels): a
// request answered before its cancel was sent is left out (it is replayed like any other),
// and so are input_required chains.

// flight is a cancelled request sent and not waited for: its response, if any, is collected
// once its cancel has gone out.
type flight struct {
	idx    int    // its row in the report
	res    Result // the row so far
	key    string // key of the id it was sent with
	sub    *session.Subscription
	cancel context.CancelFunc
	done   chan struct{} // closed when SendRaw returned
	resp   *session.Response
	err    error
	at     time.Time     // when it was sent
	delay  time.Duration // until its cancel: the recorded delay, bounded
	seq    uint64        // Seq of the live request event
	late   *session.Event
}

// startFlight sends the request of entry req in the background.
func startFlight(ctx context.Context, t *Transcript, s *session.Session, req, cancelEntry *Entry, res Result, n, idx int,
	newIDs *idMap) *flight {
	f := req.Event.Frame
	id := newID(f.ID, n)
	raw, err := withMember(f.Raw, "id", id)
	if err != nil {
		raw, id = f.Raw, f.ID.Raw
	}
	newIDs.set(f.ID.Key(), id)
	if recorded := t.ResponseTo(req.Event.Seq); recorded != nil {
		res.Recorded = asJSON(recorded.Event.Frame.Raw)
	}
	fl := &flight{idx: idx, res: res, key: protocol.ID{Raw: id}.Key(), done: make(chan struct{}),
		delay: min(max(cancelEntry.Mono-req.Mono, 0), maxCancelDelay)}
	fl.sub = s.Subscribe(0) // before sending: the request event must be seen
	cctx, cancel := context.WithCancel(ctx)
	fl.cancel = cancel
	fl.at = time.Now()
	go func() {
		defer close(fl.done)
		fl.resp, fl.err = s.SendRaw(cctx, raw)
	}()
	return fl
}

// scan notes the live request's Seq and a response to it that came after the session
// stopped waiting for it.
func (fl *flight) scan(evs []*session.Event) {
	for _, e := range evs {
		if e.Kind != session.EvFrame {
			continue
		}
		f := e.Frame
		switch {
		case fl.seq == 0 && e.Dir == protocol.ClientToServer && f.Kind == protocol.KindRequest && f.ID.Key() == fl.key:
			fl.seq = e.Seq
		case fl.seq != 0 && fl.late == nil && e.Dir == protocol.ServerToClient && f.Kind.IsResponse() && f.ID.Key() == fl.key:
			fl.late = e
		}
	}
}

// requestSeq is the live request event's Seq, 0 when it was not sent.
func (fl *flight) requestSeq(ctx context.Context) uint64 {
	wctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	for fl.seq == 0 {
		evs, ok := fl.sub.Next(wctx, 0)
		if !ok {
			break
		}
		fl.scan(evs)
	}
	return fl.seq
}

// finish waits out the recorded delay, cancels the request with the recorded cancel's
// reason (through the session, which then stops waiting for it; the recorded frame with the
// new id when the session no longer has the request out), collects what the server sends
// within grace and makes the row. It returns the session's end, if it ended.
func (fl *flight) finish(ctx context.Context, s *session.Session, cancelFrame *protocol.Frame, newIDs *idMap,
	grace time.Duration) (Result, error) {
	defer fl.sub.Close()
	wait := time.NewTimer(time.Until(fl.at.Add(fl.delay)))
	select {
	case <-wait.C:
	case <-fl.done:
	case <-ctx.Done():
	}
	wait.Stop()
	var sendErr error
	if seq := fl.requestSeq(ctx); seq == 0 || !s.Cancel(seq, cancelReason(cancelFrame)) {
		_, sendErr = s.SendRaw(ctx, remapCancel(cancelFrame, newIDs))
	}
	gctx, cancel := context.WithTimeout(ctx, grace)
	defer cancel()
	select {
	case <-fl.done:
	case <-gctx.Done():
	}
	fl.cancel()
	<-fl.done
	res := fl.res
	var live *session.Event
	if fl.resp != nil {
		live = fl.resp.Event
	}
	for live == nil && fl.seq != 0 && gctx.Err() == nil {
		evs, ok := fl.sub.Next(gctx, 0)
		if !ok {
			break
		}
		fl.scan(evs)
		live = fl.late
	}
	if live != nil {
		res.Live = asJSON(live.Frame.Raw)
	}
	for _, err := range []error{fl.err, sendErr} {
		if live == nil && err != nil && sessionEnded(err) {
			res.Status, res.Error = StatusError, rowError(res.Method, err)
			return res, err
		}
	}
	res.Status = StatusCancelled
	return res, nil
}

// abandon makes the row of a request whose cancel was never sent (the session ended first).
func (fl *flight) abandon(ended error) Result {
	fl.cancel()
	<-fl.done
	fl.sub.Close()
	res := fl.res
	if fl.resp != nil && fl.resp.Event != nil {
		res.Live = asJSON(fl.resp.Event.Frame.Raw)
	}
	switch {
	case fl.err != nil && sessionEnded(fl.err):
		res.Status, res.Error = StatusError, rowError(res.Method, fl.err)
	case ended != nil:
		res.Status, res.Error = StatusError, res.Method+": its cancel was not sent, the session had ended ("+ended.Error()+")"
	default:
		res.Status = StatusCancelled
	}
	return res
}

// cancelReason is the reason the recorded cancel gave.
func cancelReason(f *protocol.Frame) string {
	var p struct {
		Reason string `json:"reason"`
	}
	_ = json.Unmarshal(f.Params, &p)
	return p.Reason
}

// maxRemembered is how many replayed requests' ids a replay remembers, for the cancels
// that follow them: a cancel names a request sent shortly before.
const maxRemembered = 1 << 16

// idMap maps the ids of the last requests replayed (at most its capacity) to the ids they
// were sent with.
type idMap struct {
	m    map[string]json.RawMessage
	ring []string
	next int
}

func newIDMap(n int) *idMap {
	return &idMap{m: map[string]json.RawMessage{}, ring: make([]string, 0, n)}
}

func (x *idMap) set(k string, id json.RawMessage) {
	if _, ok := x.m[k]; !ok {
		if len(x.ring) < cap(x.ring) {
			x.ring = append(x.ring, k)
		} else {
			delete(x.m, x.ring[x.next])
			x.ring[x.next] = k
			x.next = (x.next + 1) % len(x.ring)
		}
	}
	x.m[k] = id
}

func (x *idMap) get(k string) (json.RawMessage, bool) {
	id, ok := x.m[k]
	return id, ok
}
