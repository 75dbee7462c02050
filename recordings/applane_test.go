package recordings_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestAppLaneRoundTrip: an app's postMessage lane is recorded and read back with its lane,
// pairing, findings and the mark on the server call made for the app; the transcript
// (replay, mock) leaves the lane out.
func TestAppLaneRoundTrip(t *testing.T) {
	url, _ := sessiontest.StartDemoHTTP(t)
	sp := session.ServerSpec{URL: url, Transport: "http"}
	tr, err := sp.NewTransport()
	if err != nil {
		t.Fatal(err)
	}
	s := session.New(session.Config{Transport: tr})
	path := filepath.Join(t.TempDir(), "app.jsonl")
	w, err := recordings.Create(path, recordings.Header{Server: sp.Describe(), Transport: "http", Protocol: "auto"}, recordings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Record(s.SubscribeWith(session.SubscribeOptions{Lossless: true}))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	lane := s.AppLane()
	early := lane.Record(protocol.ServerToClient, []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`))
	req := lane.Record(protocol.ServerToClient, []byte(`{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{}}`))
	resp := lane.Record(protocol.ClientToServer, []byte(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2026-01-26"}}`))
	if _, err := s.Call(ctx, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "x"}}, session.FromApp(early.Seq)); err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if resp.Corr.RequestSeq != req.Seq {
		t.Fatalf("the lane did not pair: %+v", resp.Corr)
	}

	r, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var lanes, marked int
	for i := range r.Len() {
		en, err := r.Entry(i)
		if err != nil {
			t.Fatal(err)
		}
		e := en.Event
		switch {
		case e.Seq == early.Seq:
			if e.Lane != session.LaneApp || len(e.Frame.Findings) == 0 || e.Frame.Findings[0].Code != protocol.FindAppBeforeInitialize {
				t.Errorf("the early request came back as %s lane=%q %v", e.Summary(), e.Lane, e.Frame.Findings)
			}
		case e.Seq == resp.Seq:
			if e.Lane != session.LaneApp || e.Corr.RequestSeq != req.Seq || e.Dir != protocol.ClientToServer {
				t.Errorf("the answer came back as %s lane=%q %+v", e.Summary(), e.Lane, e.Corr)
			}
		}
		if e.Lane == session.LaneApp {
			lanes++
		}
		if e.Kind == session.EvFrame && e.Lane == "" && e.Corr.AppSeq == early.Seq {
			marked++
		}
	}
	if lanes != 3 || marked != 2 {
		t.Errorf("read back %d app-lane frames (want 3) and %d server frames marked as the app's (want 2)", lanes, marked)
	}
	tr2, err := recordings.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tr2.Close()
	for en := range tr2.Frames() {
		if en.Event.Lane != "" {
			t.Errorf("the transcript holds an app-lane frame: %s", en.Event.Summary())
		}
	}
}
