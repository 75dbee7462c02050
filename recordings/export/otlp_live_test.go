package export

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/secret"
)

// TestLiveSendsOnClose: a live exporter's spans reach an OTLP/HTTP receiver as protobuf,
// the last of them when it closes; an answered request is one span from request to answer,
// and the receiver sees the headers OTEL_EXPORTER_OTLP_HEADERS names.
func TestLiveSendsOnClose(t *testing.T) {
	var mu sync.Mutex
	var names []string
	var auth []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		req := &coltracepb.ExportTraceServiceRequest{}
		if r.Header.Get("Content-Type") != "application/x-protobuf" || proto.Unmarshal(b, req) != nil {
			t.Errorf("OTLP request %s: %q", r.Header.Get("Content-Type"), b)
			http.Error(w, "bad", http.StatusBadRequest)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		auth = append(auth, r.Header.Get("Authorization"))
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					names = append(names, s.Name)
					if s.Status.GetMessage() != "" {
						names = append(names, "status: "+s.Status.GetMessage())
					}
				}
			}
		}
	}))
	defer srv.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "Authorization=Bearer%20abc, x-empty")
	l, err := NewLive(context.Background(), recordings.Header{Transport: "stdio", Server: "demo"}, secret.New(nil, false),
		OTLPOptions{Endpoint: srv.URL + "/v1/traces"})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	req := &session.Event{Seq: 1, Time: now, Kind: session.EvFrame, Dir: protocol.ClientToServer,
		Frame: protocol.Decode([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`))}
	resp := &session.Event{Seq: 2, Time: now.Add(time.Millisecond), Kind: session.EvFrame, Dir: protocol.ServerToClient,
		Frame: protocol.Decode([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)), Corr: session.Correlation{Method: "tools/call", RequestSeq: 1}}
	l.Observe(req)
	l.Observe(resp)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := l.Close(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(names) != 2 || names[0] != "tools/call echo" || names[1] != SessionSpanName {
		t.Errorf("spans received %q, want the answered call's then the session's", names)
	}
	if len(auth) == 0 || auth[0] != "Bearer abc" {
		t.Errorf("Authorization %q, want the header the environment names", auth)
	}
}
