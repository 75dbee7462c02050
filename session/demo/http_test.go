package demo

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// sseStream reads server-sent events from a response body.
type sseStream struct {
	t  *testing.T
	br *bufio.Reader
}

// next returns the next event's name and data, or ok=false at the end of
// the stream.
func (s *sseStream) next() (event, data string, ok bool) {
	s.t.Helper()
	var lines []string
	for {
		line, err := s.br.ReadString('\n')
		line = strings.TrimRight(line, "\r\n")
		switch {
		case err != nil && line == "":
			return "", "", false
		case line == "" && len(lines) > 0:
			return event, strings.Join(lines, "\n"), true
		case strings.HasPrefix(line, "event:"):
			event = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "data:"):
			lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
	}
}

// nextMsg returns the next JSON-RPC message on the stream.
func (s *sseStream) nextMsg() wireMsg {
	s.t.Helper()
	for {
		_, data, ok := s.next()
		if !ok {
			s.t.Fatalf("event stream ended")
		}
		if data == "" {
			continue
		}
		var m wireMsg
		if err := json.Unmarshal([]byte(data), &m); err != nil {
			s.t.Fatalf("event data %q: %v", data, err)
		}
		m.raw = data
		return m
	}
}

// post sends one JSON-RPC body with the given headers.
func post(t *testing.T, url string, headers map[string]string, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", body, err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// postCall posts a request and returns its response, reading either a JSON
// body or an event stream.
func postCall(t *testing.T, url string, headers map[string]string, body string) (*http.Response, wireMsg) {
	t.Helper()
	resp := post(t, url, headers, body)
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return resp, (&sseStream{t: t, br: bufio.NewReader(resp.Body)}).nextMsg()
	}
	data, _ := io.ReadAll(resp.Body)
	var m wireMsg
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: status %d, body %q", body, resp.StatusCode, data)
	}
	m.raw = string(data)
	return resp, m
}

func newHTTPServer(t *testing.T) (*httptest.Server, *syncBuffer) {
	stderr := newSyncBuffer()
	srv := httptest.NewServer(Handler(stderr))
	t.Cleanup(srv.Close)
	return srv, stderr
}

func TestHTTPStreamableStateful(t *testing.T) {
	srv, stderr := newHTTPServer(t)
	url := srv.URL + "/mcp"
	resp, m := postCall(t, url, nil, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":`+fullCaps+`,"clientInfo":{"name":"raw-http","version":"1"}}}`)
	sid := resp.Header.Get("Mcp-Session-Id")
	if sid == "" || !strings.Contains(string(m.Result), `"protocolVersion":"2025-11-25"`) {
		t.Fatalf("initialize: session %q, %s", sid, m.raw)
	}
	h := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
	if r := post(t, url, h, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); r.StatusCode != http.StatusAccepted {
		t.Fatalf("initialized: status %d", r.StatusCode)
	}

	_, m = postCall(t, url, h, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"over http"}}}`)
	var r toolResult
	m.result(t, &r)
	if r.text() != "over http" {
		t.Errorf("echo: %s", m.raw)
	}

	// The elicitation request arrives on the tool call's event stream; the
	// answer is POSTed separately; the tool result then ends the stream.
	resp = post(t, url, h, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"ask_user","arguments":{}}}`)
	stream := &sseStream{t: t, br: bufio.NewReader(resp.Body)}
	req := stream.nextMsg()
	if !req.isRequest("elicitation/create") {
		t.Fatalf("want elicitation/create, got %s", req.raw)
	}
	answer := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"action":"accept","content":{"name":"Lin"}}}`, req.ID)
	if r := post(t, url, h, answer); r.StatusCode != http.StatusAccepted {
		t.Fatalf("answer: status %d", r.StatusCode)
	}
	res := stream.nextMsg()
	res.result(t, &r)
	if !res.isResponse(3) || !strings.Contains(r.text(), "Thanks, Lin!") {
		t.Errorf("ask_user over http: %s", res.raw)
	}
	stderr.waitFor(t, "demo: tools/call ask_user\n")
}

func TestHTTPStreamableStateless(t *testing.T) {
	srv, _ := newHTTPServer(t)
	url := srv.URL + "/mcp"
	headers := func(method, name string) map[string]string {
		h := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method}
		if name != "" {
			h["Mcp-Name"] = name
		}
		return h
	}

	resp, m := postCall(t, url, headers("server/discover", ""), `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+meta2026(`{}`)+`}}`)
	if resp.Header.Get("Mcp-Session-Id") != "" || !strings.Contains(string(m.Result), `"supportedVersions":["2026-07-28"`) {
		t.Errorf("discover: session %q, %s", resp.Header.Get("Mcp-Session-Id"), m.raw)
	}

	call := func(id int, name, args, extra string, h map[string]string) wireMsg {
		t.Helper()
		_, m := postCall(t, url, h, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s%s,%s}}`,
			id, name, args, extra, meta2026(caps2026)))
		return m
	}
	var r toolResult
	call(2, "ask_user", `{}`, "", headers("tools/call", "ask_user")).result(t, &r)
	if r.ResultType != "input_required" || r.InputRequests["profile"] == nil {
		t.Fatalf("ask_user first round: %+v", r)
	}
	retry := fmt.Sprintf(`,"inputResponses":{"profile":{"action":"accept","content":{"name":"Kay"}}},"requestState":%q`, r.RequestState)
	call(3, "ask_user", `{}`, retry, headers("tools/call", "ask_user")).result(t, &r)
	if r.ResultType != "complete" || !strings.Contains(r.text(), "Thanks, Kay!") {
		t.Errorf("ask_user retry: %+v", r)
	}

	// get_weather's city is mirrored in the Mcp-Param-City header.
	h := headers("tools/call", "get_weather")
	if m := call(4, "get_weather", `{"city":"Oslo"}`, "", h); m.Error == nil || m.Error.Code != -32020 {
		t.Errorf("get_weather without Mcp-Param-City: %s", m.raw)
	}
	h["Mcp-Param-City"] = "Oslo"
	call(5, "get_weather", `{"city":"Oslo"}`, "", h).result(t, &r)
	if !strings.Contains(string(r.StructuredContent), `"city":"Oslo"`) {
		t.Errorf("get_weather: %+v", r)
	}

	// There is no GET stream in 2026-07-28.
	get, _ := http.NewRequest(http.MethodGet, url, nil)
	get.Header.Set("MCP-Protocol-Version", "2026-07-28")
	get.Header.Set("Accept", "text/event-stream")
	if resp, err := http.DefaultClient.Do(get); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET in 2026-07-28: %v %v", resp.Status, err)
	} else {
		resp.Body.Close()
	}
}

func TestHTTPLegacySSE(t *testing.T) {
	srv, _ := newHTTPServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	get, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/sse", nil)
	get.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(get)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	stream := &sseStream{t: t, br: bufio.NewReader(resp.Body)}
	event, endpoint, ok := stream.next()
	if !ok || event != "endpoint" || !strings.HasPrefix(endpoint, "/sse?sessionid=") {
		t.Fatalf("first event %q %q", event, endpoint)
	}
	send := func(body string) {
		t.Helper()
		if r := post(t, srv.URL+endpoint, nil, body); r.StatusCode != http.StatusAccepted {
			t.Fatalf("POST %s: status %d", body, r.StatusCode)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"raw-sse","version":"1"}}}`)
	if m := stream.nextMsg(); !m.isResponse(1) || !strings.Contains(string(m.Result), `"protocolVersion":"2024-11-05"`) {
		t.Fatalf("initialize over SSE: %s", m.raw)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`)
	var r toolResult
	m := stream.nextMsg()
	m.result(t, &r)
	if !m.isResponse(2) || r.text() != "1 + 2 = 3" {
		t.Errorf("add over SSE: %s", m.raw)
	}
}

func TestServeHTTP(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	stderr := newSyncBuffer()
	done := make(chan error, 1)
	go func() { done <- ServeHTTP(ctx, "127.0.0.1:0", stderr) }()
	stderr.waitFor(t, "/sse (HTTP+SSE)")
	url := regexp.MustCompile(`http://\S+/mcp`).FindString(stderr.String())
	_, m := postCall(t, url, map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"},
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+meta2026(`{}`)+`}}`)
	var list struct{ Tools []struct{ Name string } }
	m.result(t, &list)
	if len(list.Tools) == 0 || !slices.ContainsFunc(list.Tools, func(x struct{ Name string }) bool { return x.Name == "add" }) {
		t.Errorf("tools/list over ServeHTTP: %s", m.raw)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeHTTP: %v", err)
		}
	case <-time.After(waitTimeout):
		t.Fatal("ServeHTTP did not return after cancel")
	}
}
