package recordings

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// Transcript is a recording's conversation, decoded and paired: every frame, each request
// with its response, each server request with the client's answer. Replay and Mock work on
// it; it holds every event in memory.
type Transcript struct {
	Path     string
	Header   Header
	Entries  []Entry
	Problems []Problem

	bySeq    map[uint64]*Entry
	response map[uint64]*Entry   // request Seq → the first response to it
	chains   map[uint64][]uint64 // first request Seq → Seqs of the chain's requests, in order
}

// Load reads and pairs a whole recording.
func Load(path string) (*Transcript, error) {
	r, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	entries, bad := r.Events()
	t := &Transcript{Path: path, Header: r.Header(), Entries: entries, Problems: append(append([]Problem(nil), r.Problems()...), bad...)}
	t.unique()
	t.pair()
	return t, nil
}

// genShift puts the session generation above the sequence number, so that the Seqs of a
// recording with restarts (each session counts from 1) stay distinct in a Transcript.
const genShift = 40

// unique renumbers the loaded events of sessions after the first: Seq and the Seqs their
// correlation refers to get the generation in their high bits. The events are this
// Transcript's own copies; the file is not touched.
func (t *Transcript) unique() {
	for i := range t.Entries {
		e := &t.Entries[i]
		if e.Gen <= 1 {
			continue
		}
		hi := uint64(e.Gen) << genShift
		ev := e.Event
		ev.Seq |= hi
		if ev.Corr.RequestSeq != 0 {
			ev.Corr.RequestSeq |= hi
		}
		if ev.Corr.ChainSeq != 0 {
			ev.Corr.ChainSeq |= hi
		}
	}
}

func (t *Transcript) pair() {
	t.bySeq = make(map[uint64]*Entry, len(t.Entries))
	t.response = map[uint64]*Entry{}
	t.chains = map[uint64][]uint64{}
	for i := range t.Entries {
		e := &t.Entries[i]
		t.bySeq[e.Event.Seq] = e
		ev := e.Event
		if ev.Kind != session.EvFrame {
			continue
		}
		switch {
		case ev.Frame.Kind.IsResponse() && ev.Corr.RequestSeq != 0:
			if _, ok := t.response[ev.Corr.RequestSeq]; !ok {
				t.response[ev.Corr.RequestSeq] = e
			}
		case ev.Frame.Kind == protocol.KindRequest && ev.Dir == protocol.ClientToServer && ev.Corr.ChainSeq != 0:
			c := t.chains[ev.Corr.ChainSeq]
			if c == nil {
				c = []uint64{ev.Corr.ChainSeq}
			}
			t.chains[ev.Corr.ChainSeq] = append(c, ev.Seq)
		}
	}
}

// ResponseTo is the recorded response to the request event with Seq seq, or nil.
func (t *Transcript) ResponseTo(seq uint64) *Entry { return t.response[seq] }

// handshakeMethods are redone by every live session rather than replayed.
var handshakeMethods = map[string]bool{"initialize": true, "server/discover": true, "notifications/initialized": true}

// Handshake is the recorded handshake's final exchange in the recording's first session: the
// last successful initialize or server/discover request and its response (the last attempt
// when none succeeded). Both are nil when the recording has no handshake.
func (t *Transcript) Handshake() (req, resp *Entry) {
	for i := range t.Entries {
		e := &t.Entries[i]
		ev := e.Event
		if e.Gen > 1 || ev.Kind != session.EvFrame || ev.Dir != protocol.ClientToServer || ev.Frame.Kind != protocol.KindRequest {
			continue
		}
		if ev.Frame.Method != "initialize" && ev.Frame.Method != "server/discover" {
			continue
		}
		r := t.response[ev.Seq]
		ok := r != nil && r.Event.Frame.Kind == protocol.KindResult
		if ok || resp == nil || resp.Event.Frame.Kind != protocol.KindResult {
			req, resp = e, r
		}
	}
	return req, resp
}

// paramsKey is the canonical form of params for matching: _meta removed, members sorted,
// an empty object the same as no params.
func paramsKey(params json.RawMessage) string {
	v, ok := paramsValue(params)
	if !ok {
		return string(bytes.TrimSpace(params))
	}
	if v == nil {
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// paramsValue decodes params without _meta; nil for none or an empty object.
func paramsValue(params json.RawMessage) (any, bool) {
	if len(bytes.TrimSpace(params)) == 0 {
		return nil, true
	}
	v, err := decodeJSON(params)
	if err != nil {
		return nil, false
	}
	if m, ok := v.(map[string]any); ok {
		delete(m, "_meta")
		if len(m) == 0 {
			return nil, true
		}
	}
	return v, true
}

// withMember returns the object raw with member key set to val (replaced in place, or
// added at the end), other members kept as written.
func withMember(raw []byte, key string, val json.RawMessage) ([]byte, error) {
	ms, ok := protocol.ObjectMembers(raw)
	if !ok {
		return nil, fmt.Errorf("not a JSON object")
	}
	found := false
	for i := range ms {
		if ms[i].Key == key {
			ms[i].Value, found = val, true
			break
		}
	}
	if !found {
		ms = append(ms, protocol.Member{Key: key, Value: val})
	}
	return protocol.EncodeObject(ms), nil
}
