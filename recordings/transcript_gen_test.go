package recordings

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// TestTranscriptRestarts: a recording holding two sessions (a restart) numbers each from
// Seq 1; the transcript still pairs every response with the request of its own session.
func TestTranscriptRestarts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "restarts.jsonl")
	w, err := Create(path, Header{Server: "s", Transport: "stdio"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for gen, method := range map[int]string{1: "tools/list", 2: "prompts/list"} {
		req := &session.Event{Seq: 1, Time: now, Kind: session.EvFrame, Dir: protocol.ClientToServer,
			Frame: protocol.Decode([]byte(`{"jsonrpc":"2.0","id":1,"method":"` + method + `"}`))}
		res := &session.Event{Seq: 2, Time: now, Kind: session.EvFrame, Dir: protocol.ServerToClient,
			Frame: protocol.Decode([]byte(`{"jsonrpc":"2.0","id":1,"result":{"gen":` + string(rune('0'+gen)) + `}}`)),
			Corr:  session.Correlation{Method: method, RequestSeq: 1}}
		for _, e := range []*session.Event{req, res} {
			if err := w.WriteGen(e, gen); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tr, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for e := range tr.Frames() {
		ev := e.Event
		if ev.Kind != session.EvFrame || ev.Frame.Kind != protocol.KindRequest {
			continue
		}
		resp := tr.ResponseTo(ev.Seq)
		if resp == nil {
			t.Fatalf("no response paired with %s of session %d", ev.Frame.Method, e.Gen)
		}
		want := `{"gen":` + string(rune('0'+e.Gen)) + `}`
		if string(resp.Event.Frame.Result) != want {
			t.Errorf("%s of session %d paired with %s, want %s", ev.Frame.Method, e.Gen, resp.Event.Frame.Result, want)
		}
		found++
	}
	if found != 2 {
		t.Fatalf("%d requests, want 2", found)
	}
}

// TestTranscriptCancelsFromCorr: the index pairs a request with the notifications/cancelled
// that gave up on it as the recording says (the cancellation's request_seq, from the
// session's Corr), not by matching ids again; a recording written before cancellations
// carried request_seq is paired by the id the notification names.
func TestTranscriptCancelsFromCorr(t *testing.T) {
	for _, c := range []struct {
		name string
		corr uint64 // the cancellation's Corr.RequestSeq
		want uint64 // Seq of the request paired with it
	}{
		{"request_seq", 1, 1}, // names request 1 though its params name id 2: the Corr decides
		{"older recording", 0, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cancel.jsonl")
			w, err := Create(path, Header{Server: "s", Transport: "stdio"}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			now := time.Now()
			out := func(seq uint64, raw string, corr session.Correlation) *session.Event {
				return &session.Event{Seq: seq, Time: now, Kind: session.EvFrame, Dir: protocol.ClientToServer,
					Frame: protocol.Decode([]byte(raw)), Corr: corr}
			}
			for _, e := range []*session.Event{
				out(1, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`, session.Correlation{}),
				out(2, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"b"}}`, session.Correlation{}),
				out(3, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`, session.Correlation{RequestSeq: c.corr}),
			} {
				if err := w.Write(e); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			tr, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			var got []uint64
			for ri, ci := range tr.cancels {
				if tr.frames[ci].seq != 3 {
					t.Errorf("request %d paired with frame %d, not the cancellation", tr.frames[ri].seq, tr.frames[ci].seq)
				}
				got = append(got, tr.frames[ri].seq)
			}
			if len(got) != 1 || got[0] != c.want {
				t.Errorf("cancelled requests %v, want [%d]", got, c.want)
			}
		})
	}
}
