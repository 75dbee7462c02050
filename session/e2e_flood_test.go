package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// floodWatch reads a session's events as they come, keeping only what a flood test asks
// about, so 300,000 requests do not pile up in the test itself.
type floodWatch struct {
	findings  int // frames carrying the flood finding
	refusals  int // overload errors mcpscope wrote
	summaries []string
	done      chan struct{}
}

func watchFlood(s *session.Session) *floodWatch {
	w := &floodWatch{done: make(chan struct{})}
	sub := s.Subscribe(1 << 22)
	go func() {
		defer close(w.done)
		for {
			evs, ok := sub.Next(context.Background(), 0)
			if !ok {
				return
			}
			for _, e := range evs {
				switch {
				case e.Kind == session.EvFrame && sessiontest.HasFinding(protocol.FindRequestFlood)(e):
					w.findings++
				case e.Kind == session.EvFrame && e.Dir == protocol.ClientToServer && e.Frame.Error != nil &&
					e.Frame.Error.Code == session.CodeOverloaded:
					w.refusals++
				case e.Kind == session.EvError && strings.HasPrefix(e.Text, "server flooded"):
					w.summaries = append(w.summaries, e.Text)
				}
			}
		}
	}()
	return w
}

// TestServerRequestFlood floods the session with 300,000 pings from a server that stops
// reading its stdin: the requests being answered and the queue stay within their bounds, the
// rest are refused, and the flood is one finding plus one summary, not one per request.
func TestServerRequestFlood(t *testing.T) {
	if testing.Short() {
		t.Skip("300,000 requests through a real server")
	}
	const (
		pings    = 300000
		workers  = 8
		maxBytes = 256 << 10
	)
	tr := transport.NewStdio(transport.StdioOptions{Command: sessiontest.BuildBadServer(t), Grace: 100 * time.Millisecond})
	s := session.New(session.Config{Transport: tr, Protocol: "2025-11-25", Caps: session.DefaultCaps(),
		ServerRequestWorkers: workers, ServerRequestQueueBytes: maxBytes})
	w := watchFlood(s)
	ctx := testCtx(t)
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	callCtx, stop := context.WithCancel(ctx)
	defer stop()
	go s.Call(callCtx, "tools/call", map[string]any{"name": "pingflood", "arguments": map[string]any{"count": pings, "deaf": true}})

	deadline := time.Now().Add(45 * time.Second)
	var st session.ServerRequestStats
	for st = s.ServerRequests(); st.Received < pings; st = s.ServerRequests() {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d pings arrived: %+v", st.Received, pings, st)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("after the flood: %+v", st)
	if st.PeakAnswering > workers || st.PeakQueuedBytes > maxBytes || st.QueuedBytes > maxBytes {
		t.Errorf("bounds exceeded: %+v", st)
	}
	if st.Refused < pings/2 || st.Floods != 1 {
		t.Errorf("want most pings refused in one flood: %+v", st)
	}
	// A queued request costs its bytes plus the overhead, so the queue holds few of them.
	if maxQueued := maxBytes / session.ServerRequestOverhead; st.Queued > maxQueued {
		t.Errorf("%d queued, more than the bound allows (%d)", st.Queued, maxQueued)
	}

	stop()
	if err := s.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	<-w.done
	if w.findings != 1 {
		t.Errorf("%d frames carry the flood finding, want exactly 1", w.findings)
	}
	if len(w.summaries) != 1 || !strings.Contains(w.summaries[0], "requests while not reading its stdin: ") || !strings.Contains(w.summaries[0], "refused with error -32000") {
		t.Errorf("flood summaries: %q", w.summaries)
	}
	final := s.ServerRequests()
	if final.Queued != 0 || final.Answering != 0 {
		t.Errorf("after close: %+v", final)
	}
	t.Logf("refusals written: %d; final %+v; summary %q", w.refusals, final, w.summaries)
}
