package recordings_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestMockSaysMasked: a mock of a masked recording says, on its log, which answer it serves
// masked; the answer is still the recorded JSON with the incoming id.
func TestMockSaysMasked(t *testing.T) {
	path, _ := recordDemo(t, recordings.Options{Secrets: []string{"hello recording"}})
	tr, err := recordings.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var log bytes.Buffer
	m, err := recordings.NewMock([]*recordings.Transcript{tr}, recordings.MockOptions{Match: recordings.MatchMethod, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	out := m.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`))
	if f := protocol.Decode(out); f.Kind != protocol.KindResult {
		t.Fatalf("tools/list answered %s", out)
	}
	if strings.Contains(log.String(), "masked") {
		t.Errorf("an answer with no secret is said to be masked:\n%s", log.String())
	}
	out = m.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`))
	f := protocol.Decode(out)
	if f.Kind != protocol.KindResult || f.ID.String() != "6" || !strings.Contains(string(f.Result), recordings.Mask) {
		t.Fatalf("tools/call answered %s", out)
	}
	if !strings.Contains(log.String(), "tools/call → recorded response") || !strings.Contains(log.String(), "masked") {
		t.Errorf("the mock does not say it serves masked bytes:\n%s", log.String())
	}
}

// TestReplayCountsMasked: replaying a masked recording against the demo counts the
// requests it sent with the recording's masked bytes.
func TestReplayCountsMasked(t *testing.T) {
	path, _ := recordDemo(t, recordings.Options{Secrets: []string{"hello recording"}})
	tr, err := recordings.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	url, _ := sessiontest.StartDemoHTTP(t)
	sp := session.ServerSpec{URL: url, Transport: "http"}
	trp, err := sp.NewTransport()
	if err != nil {
		t.Fatal(err)
	}
	s := session.New(session.Config{Transport: trp, Responder: recordings.NewResponder(tr, nil), Protocol: tr.Header.Protocol})
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rep, err := recordings.Replay(ctx, tr, s, recordings.ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	masked := 0
	for _, r := range rep.Results {
		if r.Masked {
			masked++
			if r.Method != "tools/call" {
				t.Errorf("%s said masked", r.Method)
			}
		}
	}
	if rep.Masked != 1 || masked != 1 {
		t.Errorf("masked frames sent: %d (results %d), want the tools/call's 1", rep.Masked, masked)
	}
}
