package recordings

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// liteLine is what indexing needs of an event line: the frame's raw bytes are skipped.
type liteLine struct {
	Seq     uint64          `json:"seq"`
	Kind    string          `json:"kind"`
	Dir     string          `json:"dir"`
	Frame   string          `json:"frame"`
	Method  string          `json:"method"`
	ID      json.RawMessage `json:"id"`
	Request uint64          `json:"request_seq"`
	Chain   uint64          `json:"chain_seq"`
	Gen     int             `json:"gen"`
	Lane    string          `json:"lane"`
}

var frameKindByName = map[string]protocol.Kind{}

func init() {
	for _, k := range []protocol.Kind{protocol.KindRequest, protocol.KindNotification, protocol.KindResult, protocol.KindError, protocol.KindBatch, protocol.KindInvalid} {
		frameKindByName[k.String()] = k
	}
}

// cancelPair is a request of the first session that its client cancelled before it was
// answered, found while indexing: the Seqs of the request and of the cancel. (It also
// pairs a response's Seq with its request's while indexing.)
type cancelPair struct{ req, cancel uint64 }

// indexer holds what indexing needs along the way.
type indexer struct {
	t       *Transcript
	methods map[string]uint16
	open    map[string]uint64 // request id key → Seq of a request not yet answered nor cancelled
	pending map[uint64]string // the same, by Seq
	pairs   []cancelPair
	answers []cancelPair // a response's request Seq (req) and its own Seq (cancel), for pairing
}

// index reads every line once, in file order, keeping a fref per frame.
func (t *Transcript) index() error {
	t.methods = []string{""}
	x := &indexer{t: t, methods: map[string]uint16{"": 0}, open: map[string]uint64{}, pending: map[uint64]string{}}
	r := t.r
	br := bufio.NewReaderSize(io.NewSectionReader(r.f, 0, r.size), 1<<20)
	var pos int64
	var buf []byte
	for i := range r.offsets {
		if r.unreadable(i) != "" {
			continue // among the Reader's problems already
		}
		if _, err := br.Discard(int(r.offsets[i] - pos)); err != nil {
			return fmt.Errorf("read recording %s: %w", t.Path, err)
		}
		n := int(r.lens[i])
		if cap(buf) < n {
			buf = make([]byte, n)
		}
		b := buf[:n]
		if _, err := io.ReadFull(br, b); err != nil && !(err == io.ErrUnexpectedEOF && i == len(r.offsets)-1) {
			return fmt.Errorf("read recording %s line %d: %w", t.Path, r.Line(i), err)
		}
		pos = r.offsets[i] + int64(n)
		if why := x.add(i, b); why != "" {
			t.Problems = append(t.Problems, Problem{Line: r.Line(i), Err: fmt.Sprintf("recording %s line %d: not an event: %s", t.Path, r.Line(i), why)})
		}
	}
	if len(t.frames) > 1<<31-1 {
		return fmt.Errorf("recording %s holds more than 2^31 frames", t.Path)
	}
	slices.SortStableFunc(t.frames, func(a, b fref) int {
		switch {
		case a.seq < b.seq:
			return -1
		case a.seq > b.seq:
			return 1
		}
		return 0
	})
	// Each request gets its first response by Seq.
	slices.SortStableFunc(x.answers, func(a, b cancelPair) int {
		switch {
		case a.cancel < b.cancel:
			return -1
		case a.cancel > b.cancel:
			return 1
		}
		return 0
	})
	for _, a := range x.answers {
		if ri := t.find(a.req); ri >= 0 && t.frames[ri].resp < 0 {
			t.frames[ri].resp = int32(t.find(a.cancel))
		}
	}
	x.answers = nil
	t.cancels = map[int]int{}
	for _, p := range x.pairs {
		if len(t.chains[p.req]) > 1 {
			continue
		}
		ri, ci := t.find(p.req), t.find(p.cancel)
		if ri >= 0 && ci >= 0 {
			t.cancels[ri] = ci
		}
	}
	for i := range t.frames {
		f := &t.frames[i]
		if f.gen <= 1 && f.dir == protocol.ClientToServer && f.kind == protocol.KindRequest && !f.chained && !handshakeMethods[t.methods[f.method]] {
			t.Requests++
		}
	}
	return nil
}

// add indexes line i (its bytes b); it returns why the line is not an event, if it is not.
func (x *indexer) add(i int, b []byte) string {
	var l liteLine
	if err := json.Unmarshal(b, &l); err != nil {
		if !utf8.Valid(b) {
			return "binary data that is not JSON"
		}
		return err.Error()
	}
	kind, ok := kindByName[l.Kind]
	if !ok {
		return fmt.Sprintf("unknown event kind %q", l.Kind)
	}
	if kind != session.EvFrame || l.Lane != "" {
		return "" // an app's postMessage lane is not the conversation with the server
	}
	var dir protocol.Direction
	switch l.Dir {
	case "out":
		dir = protocol.ClientToServer
	case "in":
		dir = protocol.ServerToClient
	default:
		return fmt.Sprintf("frame with unknown direction %q", l.Dir)
	}
	if l.Gen > 1 {
		hi := uint64(l.Gen) << genShift
		l.Seq |= hi
		if l.Request != 0 {
			l.Request |= hi
		}
		if l.Chain != 0 {
			l.Chain |= hi
		}
	}
	t := x.t
	m, ok := x.methods[l.Method]
	if !ok && len(t.methods) < 1<<16 {
		m = uint16(len(t.methods))
		t.methods = append(t.methods, l.Method)
		x.methods[l.Method] = m
	} // else index 0, the method "" (see index): the frame's own decode names it
	fk, ok := frameKindByName[l.Frame]
	if !ok {
		fk = protocol.KindInvalid
	}
	t.frames = append(t.frames, fref{seq: l.Seq, at: uint32(i), resp: -1, chained: l.Chain != 0,
		method: m, gen: uint16(min(max(l.Gen, 0), 1<<16-1)), dir: dir, kind: fk})
	if fk.IsResponse() && l.Request != 0 {
		x.answers = append(x.answers, cancelPair{req: l.Request, cancel: l.Seq})
	}
	if l.Chain != 0 && dir == protocol.ClientToServer && fk == protocol.KindRequest {
		c := t.chains[l.Chain]
		if c == nil {
			c = []uint64{l.Chain}
		}
		t.chains[l.Chain] = append(c, l.Seq)
	}
	x.cancelled(i, &l, dir, fk)
	return ""
}

// cancelled follows the requests of the first session that are out, to pair each with the
// notifications/cancelled that gave up on it before it was answered (see cancelledRequests).
func (x *indexer) cancelled(i int, l *liteLine, dir protocol.Direction, fk protocol.Kind) {
	if fk.IsResponse() && l.Request != 0 {
		if k, ok := x.pending[l.Request]; ok {
			delete(x.pending, l.Request)
			if x.open[k] == l.Request {
				delete(x.open, k)
			}
		}
		return
	}
	if l.Gen > 1 || dir != protocol.ClientToServer {
		return
	}
	switch {
	case fk == protocol.KindRequest:
		k := protocol.ID{Raw: l.ID}.Key()
		if old, ok := x.open[k]; ok {
			delete(x.pending, old)
			delete(x.open, k)
		}
		if handshakeMethods[l.Method] || l.Chain != 0 {
			return
		}
		x.open[k], x.pending[l.Seq] = l.Seq, k
	case fk == protocol.KindNotification && l.Method == "notifications/cancelled":
		seq := l.Request // the session names the request it cancels (Event.Corr)
		if seq == 0 {
			seq = x.cancelledByID(i)
		}
		if k, ok := x.pending[seq]; ok {
			delete(x.pending, seq)
			if x.open[k] == seq {
				delete(x.open, k)
			}
			x.pairs = append(x.pairs, cancelPair{req: seq, cancel: l.Seq})
		}
	}
}

// cancelledByID is the Seq of the open request that the notifications/cancelled of line i
// names by id, or 0: recordings written before the session named the request in the
// notification's Corr (request_seq) carry only the id.
func (x *indexer) cancelledByID(i int) uint64 {
	e, err := x.t.r.Entry(i)
	if err != nil || e.Event.Frame == nil {
		return 0
	}
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(e.Event.Frame.Params, &p) != nil || len(p.RequestID) == 0 {
		return 0
	}
	return x.open[protocol.ID{Raw: p.RequestID}.Key()]
}
