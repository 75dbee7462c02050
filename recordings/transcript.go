package recordings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"iter"
	"slices"

	"github.com/mcpscope/mcpscope/protocol"
)

// Transcript is a recording's conversation, paired: each request with its response, each
// server request with the client's answer. Replay and Mock work on it. It does not hold
// the events: Load indexes the frames (a few dozen bytes each: sequence numbers, direction,
// kind, method, where the line is) and frames are read from the file when they are used, so
// a recording of any size is replayed or served in about the same memory. Close it when
// done.
type Transcript struct {
	Path     string
	Header   Header
	Problems []Problem

	r       *Reader
	frames  []fref   // every frame event, by Seq (the generation in the high bits)
	methods []string // the methods frames name, interned (fref.method indexes it)
	chains  map[uint64][]uint64
	cancels map[int]int // index of a cancelled request frame → index of its cancel
	// Requests is the number of client requests Replay sends (the handshake and the
	// sessions after the first left out), for progress.
	Requests int
}

// fref is one indexed frame: 24 bytes.
type fref struct {
	seq     uint64 // Seq, with its generation (see genShift)
	at      uint32 // the Reader's index of its line
	resp    int32  // index in frames of its first response; -1 for none
	method  uint16
	gen     uint16
	dir     protocol.Direction
	kind    protocol.Kind
	chained bool // Corr.ChainSeq is set: a retry of an input_required chain (see chains)
}

// Load indexes a recording's frames and pairs them; see Transcript.
func Load(path string) (*Transcript, error) {
	r, err := Open(path)
	if err != nil {
		return nil, err
	}
	t := &Transcript{Path: path, Header: r.Header(), r: r, chains: map[uint64][]uint64{}}
	t.Problems = append(t.Problems, r.Problems()...)
	if err := t.index(); err != nil {
		r.Close()
		return nil, err
	}
	return t, nil
}

// Close closes the recording's file.
func (t *Transcript) Close() error {
	if t.r == nil {
		return nil
	}
	return t.r.Close()
}

// genShift puts the session generation above the sequence number, so that the Seqs of a
// recording with restarts (each session counts from 1) stay distinct in a Transcript.
const genShift = 40

// unique renumbers an event of a session after the first: Seq and the Seqs its
// correlation refers to get the generation in their high bits. The event is the
// Transcript's own copy; the file is not touched.
func unique(e *Entry) {
	if e.Gen <= 1 {
		return
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

// entry reads frame fi from the file.
func (t *Transcript) entry(fi int) (*Entry, error) {
	e, err := t.r.Entry(int(t.frames[fi].at))
	if err != nil {
		return nil, err
	}
	unique(&e)
	return &e, nil
}

// find is the index in frames of the frame with Seq seq, or -1.
func (t *Transcript) find(seq uint64) int {
	i, ok := slices.BinarySearchFunc(t.frames, seq, func(f fref, s uint64) int {
		switch {
		case f.seq < s:
			return -1
		case f.seq > s:
			return 1
		}
		return 0
	})
	if !ok {
		return -1
	}
	return i
}

// Frames reads every frame of the recording in order, one at a time; a frame whose line
// cannot be decoded is left out.
func (t *Transcript) Frames() iter.Seq[Entry] {
	return func(yield func(Entry) bool) {
		for fi := range t.frames {
			e, err := t.entry(fi)
			if err != nil {
				continue
			}
			if !yield(*e) {
				return
			}
		}
	}
}

// BySeq is the recorded frame with Seq seq, or nil.
func (t *Transcript) BySeq(seq uint64) *Entry {
	fi := t.find(seq)
	if fi < 0 {
		return nil
	}
	e, err := t.entry(fi)
	if err != nil {
		return nil
	}
	return e
}

// ResponseTo is the recorded response to the request event with Seq seq, or nil.
func (t *Transcript) ResponseTo(seq uint64) *Entry {
	fi := t.find(seq)
	if fi < 0 {
		return nil
	}
	return t.responseOf(fi)
}

// responseOf is the recorded response to frame fi, or nil.
func (t *Transcript) responseOf(fi int) *Entry {
	ri := t.frames[fi].resp
	if ri < 0 {
		return nil
	}
	e, err := t.entry(int(ri))
	if err != nil {
		return nil
	}
	return e
}

// handshakeMethods are redone by every live session rather than replayed.
var handshakeMethods = map[string]bool{"initialize": true, "server/discover": true, "notifications/initialized": true}

// Handshake is the recorded handshake's final exchange in the recording's first session: the
// last successful initialize or server/discover request and its response (the last attempt
// when none succeeded). Both are nil when the recording has no handshake.
func (t *Transcript) Handshake() (req, resp *Entry) {
	best, bestOK := -1, false
	for fi := range t.frames {
		f := &t.frames[fi]
		if f.gen > 1 || f.dir != protocol.ClientToServer || f.kind != protocol.KindRequest {
			continue
		}
		if m := t.methods[f.method]; m != "initialize" && m != "server/discover" {
			continue
		}
		ok := f.resp >= 0 && t.frames[f.resp].kind == protocol.KindResult
		if ok || !bestOK {
			best, bestOK = fi, ok
		}
	}
	if best < 0 {
		return nil, nil
	}
	req, err := t.entry(best)
	if err != nil {
		return nil, nil
	}
	return req, t.responseOf(best)
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
