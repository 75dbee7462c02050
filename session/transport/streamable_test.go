package transport

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestStreamableHTTPRealServer drives the go-sdk's Streamable HTTP server through a whole
// session, with SSE and with JSON response bodies.
func TestStreamableHTTPRealServer(t *testing.T) {
	for _, jsonResponse := range []bool{false, true} {
		name, via := "sse", "sse"
		if jsonResponse {
			name, via = "json", "http"
		}
		t.Run(name, func(t *testing.T) {
			srv := newMCPServer()
			h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
				&mcp.StreamableHTTPOptions{JSONResponse: jsonResponse})
			ts, log := serve(t, h)
			tr := NewStreamableHTTP(HTTPOptions{
				URL:         ts.URL,
				Headers:     http.Header{"X-Custom": {"yes"}},
				BearerToken: "tok-0123456789abcd",
			})
			sink := startHTTP(t, tr)

			mustSend(t, tr, outInitialize())
			f := sink.waitFrame(t, `"id":1`)
			if f.info.Via != via || f.info.Exchange == 0 || !strings.Contains(f.raw, `"protocolVersion":"2025-11-25"`) {
				t.Fatalf("initialize response %q via %+v", f.raw, f.info)
			}
			if via == "sse" && f.info.SSEEvent != "message" {
				t.Errorf("SSEEvent = %q, want message", f.info.SSEEvent)
			}
			sid := tr.SessionID()
			if sid == "" {
				t.Fatal("no session id learned from the initialize response")
			}
			sink.waitNote(t, "session")

			const v = "2025-11-25"
			mustSend(t, tr, outNotify(initializedMsg, "notifications/initialized", v))
			if !jsonResponse { // the JSON-response server has no standalone stream
				ctx, cancel := context.WithTimeout(context.Background(), httpWait)
				if err := tr.Listen(ctx); err != nil {
					t.Fatalf("Listen: %v", err)
				}
				cancel()
				sink.waitNote(t, "stream-open")
			}
			mustSend(t, tr, outRequest(toolsListMsg, 2, "tools/list", v))
			if f := sink.waitFrame(t, `"id":2`); !strings.Contains(f.raw, `"name":"echo"`) {
				t.Fatalf("tools/list result %q", f.raw)
			}
			mustSend(t, tr, outRequest(toolsCallMsg, 3, "tools/call", v))
			if f := sink.waitFrame(t, `"id":3`); !strings.Contains(f.raw, `echo: hi`) {
				t.Fatalf("tools/call result %q", f.raw)
			}
			ctx, cancel := context.WithTimeout(context.Background(), httpWait)
			defer cancel()
			if err := tr.Close(ctx); err != nil {
				t.Fatalf("Close: %v", err)
			}
			checkNoHTTPGoroutines(t)

			posts := log.byMethod(http.MethodPost)
			if len(posts) != 4 {
				t.Fatalf("server saw %d POSTs, want 4", len(posts))
			}
			for i, p := range posts {
				if p.header.Get("Accept") != "application/json, text/event-stream" || p.header.Get("Content-Type") != "application/json" {
					t.Errorf("POST %d: Accept %q, Content-Type %q", i, p.header.Get("Accept"), p.header.Get("Content-Type"))
				}
				if p.header.Get("X-Custom") != "yes" || p.header.Get("Authorization") != "Bearer tok-0123456789abcd" {
					t.Errorf("POST %d: custom headers missing: %v", i, p.header)
				}
				wantSID, wantVersion := sid, v
				if i == 0 {
					wantSID, wantVersion = "", ""
				}
				if got := p.header.Get("Mcp-Session-Id"); got != wantSID {
					t.Errorf("POST %d: Mcp-Session-Id %q, want %q", i, got, wantSID)
				}
				if got := p.header.Get("MCP-Protocol-Version"); got != wantVersion {
					t.Errorf("POST %d: MCP-Protocol-Version %q, want %q", i, got, wantVersion)
				}
			}
			dels := log.byMethod(http.MethodDelete)
			if len(dels) != 1 || dels[0].header.Get("Mcp-Session-Id") != sid {
				t.Fatalf("DELETE requests %v, want one with the session id", dels)
			}
			if !jsonResponse {
				gets := log.byMethod(http.MethodGet)
				if len(gets) == 0 || gets[0].header.Get("Accept") != "text/event-stream" || gets[0].header.Get("Mcp-Session-Id") != sid {
					t.Fatalf("listen GET: %v", gets)
				}
				if len(exchangesFor(sink, "listen")) == 0 {
					t.Error("no listen exchange reported")
				}
			}
			exs := exchangesFor(sink, "post")
			if len(exs) != 4 || exs[0].Status != 200 || exs[1].Status != 202 {
				t.Fatalf("post exchanges: %+v", exs)
			}
			if got := exs[0].ReqHeaders.Get("Authorization"); got != "Bearer ****abcd" {
				t.Errorf("reported Authorization %q, want it masked", got)
			}
			if d := exchangesFor(sink, "delete"); len(d) != 1 || d[0].Status/100 != 2 {
				t.Errorf("delete exchange: %+v", d)
			}
			sink.mu.Lock()
			exits := append([]ExitInfo(nil), sink.exits...)
			sink.mu.Unlock()
			if len(exits) != 1 || !exits[0].ByUs {
				t.Errorf("exits %+v, want one by us", exits)
			}
		})
	}
}

// TestStreamableHTTPStatelessRealServer sends a 2026-07-28 request to the go-sdk's
// stateless server, which checks the mirrored headers against the body.
func TestStreamableHTTPStatelessRealServer(t *testing.T) {
	srv := newMCPServer()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true})
	ts, log := serve(t, h)
	tr := NewStreamableHTTP(HTTPOptions{URL: ts.URL})
	sink := startHTTP(t, tr)

	const v = "2026-07-28"
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}`
	call := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"},` + meta + `}}`
	mustSend(t, tr, Outgoing{Raw: []byte(call), ID: []byte("5"), Method: "tools/call", Name: "echo", IsRequest: true, ProtocolVersion: v, Stateless: true})
	if f := sink.waitFrame(t, `"id":5`); !strings.Contains(f.raw, "echo: x") {
		t.Fatalf("stateless tools/call answered %q", f.raw)
	}
	ctx, cancel := context.WithTimeout(context.Background(), httpWait)
	defer cancel()
	if err := tr.Listen(ctx); err != nil {
		t.Fatalf("Listen: %v", err)
	}
	if n := sink.waitNote(t, "listen"); !strings.Contains(n.Text, "subscriptions/listen") {
		t.Errorf("listen note %q", n.Text)
	}
	if err := tr.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	reqs := log.list()
	if len(reqs) != 1 || reqs[0].method != http.MethodPost {
		t.Fatalf("server saw %v, want one POST (no GET, no DELETE)", reqs)
	}
	hd := reqs[0].header
	if hd.Get("Mcp-Method") != "tools/call" || hd.Get("Mcp-Name") != "echo" || hd.Get("Mcp-Protocol-Version") != v || hd.Get("Mcp-Session-Id") != "" {
		t.Errorf("stateless headers: %v", hd)
	}
}

// TestStreamableHTTPModernErrorBody: a stateful server refuses a 2026-07-28 request with
// 400 and a JSON-RPC error; the error is a frame, and Send reports the status as delivered.
func TestStreamableHTTPModernErrorBody(t *testing.T) {
	srv := newMCPServer()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts, _ := serve(t, h)
	tr := NewStreamableHTTP(HTTPOptions{URL: ts.URL})
	sink := startHTTP(t, tr)
	call := `{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`
	var se *HTTPStatusError
	if err := tr.Send(context.Background(), Outgoing{Raw: []byte(call), ID: []byte("9"), Method: "tools/list", IsRequest: true, ProtocolVersion: "2026-07-28", Stateless: true}); !errors.As(err, &se) || !se.Delivered {
		t.Fatalf("Send = %v, want a delivered HTTPStatusError", err)
	}
	f := sink.waitFrame(t, `"id":9`)
	var msg struct {
		Error *struct{ Code int } `json:"error"`
	}
	if err := json.Unmarshal([]byte(f.raw), &msg); err != nil || msg.Error == nil || f.info.Via != "http" {
		t.Fatalf("frame %q via %+v", f.raw, f.info)
	}
	if ex := exchangesFor(sink, "post"); len(ex) != 1 || ex[0].Status != http.StatusBadRequest {
		t.Fatalf("exchanges %+v", ex)
	}
}

func TestHeaderValue(t *testing.T) {
	tests := map[string]string{
		"get_weather":                        "get_weather",
		"file:///projects/myapp/config.json": "file:///projects/myapp/config.json",
		"Hello, 世界":                          "=?base64?SGVsbG8sIOS4lueVjA==?=",
		" padded ":                           "=?base64?IHBhZGRlZCA=?=",
		"line1\nline2":                       "=?base64?bGluZTEKbGluZTI=?=",
		"=?base64?literal?=":                 "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=",
		"":                                   "",
		"us west 1":                          "us west 1",
		"\tindented":                         "=?base64?CWluZGVudGVk?=",
		"a\tb":                               "=?base64?YQli?=",
		"line1\r\nline2":                     "=?base64?bGluZTENCmxpbmUy?=",
		"=?base64?":                          "=?base64?",
	}
	for in, want := range tests {
		if got := HeaderValue(in); got != want {
			t.Errorf("HeaderValue(%q) = %q, want %q", in, got, want)
		}
	}
}
