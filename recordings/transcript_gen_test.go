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
