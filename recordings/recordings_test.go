package recordings_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sessiontest.Cleanup()
	os.Exit(code)
}

// recordDemo records a session against the demo server over Streamable HTTP (list tools,
// call echo) and returns the file and the events the session published.
func recordDemo(t *testing.T, o recordings.Options) (string, []*session.Event) {
	t.Helper()
	return recordDemoAt(t, o, "2025-11-25")
}

// recordDemoAt is recordDemo at the given protocol revision.
func recordDemoAt(t *testing.T, o recordings.Options, proto string) (string, []*session.Event) {
	t.Helper()
	url, _ := sessiontest.StartDemoHTTP(t)
	sp := session.ServerSpec{URL: url, Transport: "http"}
	tr, err := sp.NewTransport()
	if err != nil {
		t.Fatal(err)
	}
	s := session.New(session.Config{Transport: tr, Protocol: proto})
	path := filepath.Join(t.TempDir(), "demo.jsonl")
	w, err := recordings.Create(path, recordings.Header{Server: sp.Describe(), Transport: "http", Protocol: proto}, o)
	if err != nil {
		t.Fatal(err)
	}
	w.Record(s.Subscribe(0))
	rec := sessiontest.Record(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.List(ctx, session.ListTools); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Call(ctx, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "hello recording"}}); err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if !rec.Wait(10 * time.Second) {
		t.Fatal("the event stream did not end")
	}
	if w.Events() != len(rec.Events()) {
		t.Errorf("the writer wrote %d events, the session published %d", w.Events(), len(rec.Events()))
	}
	return path, rec.Events()
}

// TestRoundTrip records a real session and reads it back: the same events, the same bytes.
func TestRoundTrip(t *testing.T) {
	path, want := recordDemo(t, recordings.Options{})
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("recording mode %v, want 0600", st.Mode().Perm())
	}
	if _, err := recordings.Create(path, recordings.Header{}, recordings.Options{}); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("Create over an existing recording: %v, want an 'already exists' error", err)
	}
	r, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h := r.Header()
	if h.Format != 1 || h.Version != session.Version() || !strings.HasPrefix(h.Server, "http://127.0.0.1") || h.Transport != "http" || !h.Redacted || h.Started.IsZero() {
		t.Errorf("header %+v", h)
	}
	if len(r.Problems()) > 0 {
		t.Errorf("problems: %v", r.Problems())
	}
	if r.Len() != len(want) {
		t.Fatalf("Len %d, want %d", r.Len(), len(want))
	}
	var lastMono time.Duration
	frames := 0
	for i, w := range want {
		en, err := r.Entry(i)
		if err != nil {
			t.Fatal(err)
		}
		g := en.Event
		if g.Seq != w.Seq || g.Kind != w.Kind || g.Text != w.Text || g.Note != w.Note || !g.Time.Equal(w.Time) {
			t.Errorf("event %d: got %s, want %s", i, g.Summary(), w.Summary())
		}
		if i == 0 && en.Mono != 0 {
			t.Errorf("first event's mono %v, want 0", en.Mono)
		}
		if w.Kind != session.EvHTTP && en.Mono < lastMono {
			t.Errorf("event %d: mono %v before the previous %v", i, en.Mono, lastMono)
		}
		if w.Kind != session.EvHTTP {
			lastMono = en.Mono
		}
		switch w.Kind {
		case session.EvFrame:
			frames++
			if !bytes.Equal(g.Frame.Raw, w.Frame.Raw) || g.Dir != w.Dir || g.Frame.Kind != w.Frame.Kind {
				t.Errorf("frame %d: got %s %q, want %s %q", w.Seq, g.Dir, g.Frame.Raw, w.Dir, w.Frame.Raw)
			}
			if g.Corr.RequestSeq != w.Corr.RequestSeq || g.Corr.Method != w.Corr.Method || g.Recv.Via != w.Recv.Via || g.Recv.Exchange != w.Recv.Exchange {
				t.Errorf("frame %d: correlation %+v %+v, want %+v %+v", w.Seq, g.Corr, g.Recv, w.Corr, w.Recv)
			}
			if d := g.Corr.Latency - w.Corr.Latency; d < -time.Microsecond || d > time.Microsecond {
				t.Errorf("frame %d: latency %v, want %v", w.Seq, g.Corr.Latency, w.Corr.Latency)
			}
		case session.EvState:
			if g.State != w.State {
				t.Errorf("state event %d: %v, want %v", w.Seq, g.State, w.State)
			}
		case session.EvHTTP:
			if g.HTTP.URL != w.HTTP.URL || g.HTTP.Status != w.HTTP.Status || g.HTTP.Purpose != w.HTTP.Purpose {
				t.Errorf("http event %d: %+v, want %+v", w.Seq, g.HTTP, w.HTTP)
			}
		}
	}
	if frames < 6 {
		t.Errorf("only %d frames recorded", frames)
	}
}

// TestReaderTolerance: a corrupt line in the middle and a last line cut short are reported
// with their line numbers and indexed as unreadable lines; frames that are not UTF-8 and
// batches survive.
func TestReaderTolerance(t *testing.T) {
	path := filepath.Join(t.TempDir(), "odd.jsonl")
	w, err := recordings.Create(path, recordings.Header{Server: "odd"}, recordings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	bad := []byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"text\":\"\xff\xfe\"}}")
	batch := []byte(`[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"1.0","method":"b"}]`)
	evs := []*session.Event{
		{Seq: 1, Time: now, Kind: session.EvState, State: session.StateConnecting, Text: "stdio"},
		{Seq: 2, Time: now.Add(time.Millisecond), Kind: session.EvFrame, Dir: protocol.ServerToClient, Frame: protocol.Decode(bad)},
		{Seq: 3, Time: now.Add(2 * time.Millisecond), Kind: session.EvFrame, Dir: protocol.ServerToClient, Frame: protocol.Decode(batch)},
		{Seq: 4, Time: now.Add(3 * time.Millisecond), Kind: session.EvStderr, Text: "a line on stderr"},
	}
	for _, e := range evs[:3] {
		if err := w.Write(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	var tail bytes.Buffer
	tail.WriteString("this is not JSON\n")
	l, _ := json.Marshal(evs[3].JSON())
	tail.Write(l)
	tail.WriteString("\n{\"seq\":5,\"kind\":\"std")
	_, _ = f.Write(tail.Bytes())
	f.Close()

	r, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Len() != 6 {
		t.Fatalf("Len %d, want 6 (four events, two unreadable lines)", r.Len())
	}
	probs := r.Problems()
	if len(probs) != 2 || probs[0].Line != 5 || probs[1].Line != 7 || !strings.Contains(probs[1].Err, "cut short") {
		t.Errorf("problems %v, want line 5 (not JSON) and line 7 (cut short)", probs)
	}
	for i, want := range map[int]string{3: "line 5: not a JSON object", 5: "line 7: cut short"} {
		var le *recordings.LineError
		if _, err := r.Entry(i); !errors.As(err, &le) || !strings.Contains(err.Error(), want) {
			t.Errorf("line %d: %v, want %q", i, err, want)
		}
	}
	if entries, bad := r.Events(); len(entries) != 4 || len(bad) != 0 {
		t.Errorf("Events: %d entries, %d problems; want 4 and none (the unreadable lines are Problems)", len(entries), len(bad))
	}
	if r.Line(4) != 6 {
		t.Errorf("event 3 is on line %d, want 6", r.Line(4))
	}
	e, err := r.Event(1)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(e.Frame.Raw, bad) {
		t.Errorf("non-UTF-8 frame came back as %q", e.Frame.Raw)
	}
	if !slicesHasCode(session.AllFindings(e.Frame), protocol.FindInvalidUTF8) {
		t.Errorf("findings of the non-UTF-8 frame: %v", e.Frame.Findings)
	}
	e, err = r.Event(2)
	if err != nil {
		t.Fatal(err)
	}
	if e.Frame.Kind != protocol.KindBatch || len(e.Frame.Batch) != 2 || len(e.Frame.Batch[1].Findings) == 0 {
		t.Errorf("batch came back as %v with members %d", e.Frame.Kind, len(e.Frame.Batch))
	}
	if e, err := r.Event(4); err != nil || e.Text != "a line on stderr" || e.Kind != session.EvStderr {
		t.Errorf("event 3: %v %v", e, err)
	}
	if _, err := recordings.Open(filepath.Join("testdata", "nonexistent")); err == nil {
		t.Error("Open of a missing file succeeded")
	}
	notRec := filepath.Join(t.TempDir(), "x.jsonl")
	_ = os.WriteFile(notRec, []byte(`{"seq":1}`+"\n"), 0o600)
	if _, err := recordings.Open(notRec); err == nil || !strings.Contains(err.Error(), "not an mcpscope recording") {
		t.Errorf("Open of a file without a header: %v", err)
	}
}

func slicesHasCode(fs []protocol.Finding, code string) bool {
	for _, f := range fs {
		if f.Code == code {
			return true
		}
	}
	return false
}

// TestRedaction masks given secrets and secret shapes everywhere; NoRedact keeps them.
func TestRedaction(t *testing.T) {
	const secret = "env-secret-value-123"
	const bearer = "tok-abcdefghijklmnop"
	const ghp = "ghp_ABCDEFGHIJKLMNOPQRSTUVWX"
	leaks := []string{secret, bearer, ghp, "sk-abcdefghijklmnopqrst7", "hunter2hunter2", "mnop"}
	now := time.Now()
	raw := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"MY_SECRET=` + secret +
		` and Bearer ` + bearer + ` and ` + ghp + ` and sk-abcdefghijklmnopqrst7"}]}}`)
	evs := []*session.Event{
		{Seq: 1, Time: now, Kind: session.EvFrame, Dir: protocol.ServerToClient, Frame: protocol.Decode(raw)},
		{Seq: 2, Time: now, Kind: session.EvStderr, Text: "starting with " + secret},
		{Seq: 3, Time: now, Kind: session.EvHTTP, HTTP: &transport.HTTPExchange{ID: 1, Purpose: "post", Method: "POST",
			URL:        "https://user:hunter2hunter2@example.com/mcp?token=" + bearer,
			ReqHeaders: http.Header{"Authorization": {"Bearer ****mnop"}, "X-Custom-Token": {"abcdefghijkl"}}}},
		{Seq: 4, Time: now, Kind: session.EvExit, Exit: &transport.ExitInfo{Code: 1, LastStderr: []string{"token=" + bearer}}, Text: "exit status 1"},
	}
	for _, noRedact := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "r.jsonl")
		w, err := recordings.Create(path, recordings.Header{Server: "server --api-key=" + secret}, recordings.Options{Secrets: []string{secret, bearer, "1", "true"}, NoRedact: noRedact})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			if err := w.Write(e); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		for _, s := range leaks[:4] {
			if got := bytes.Contains(data, []byte(s)); got != noRedact {
				t.Errorf("NoRedact=%v: %q in the recording: %v\n%s", noRedact, s, got, data)
			}
		}
		if !noRedact && (bytes.Contains(data, []byte("hunter2hunter2")) || bytes.Contains(data, []byte("mnop"))) {
			t.Errorf("the URL password or the header's last four characters survived:\n%s", data)
		}
		r, err := recordings.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		e, err := r.Event(0)
		if err != nil || !json.Valid(e.Frame.Raw) {
			t.Errorf("the redacted frame is no longer JSON: %v %s", err, e.Frame.Raw)
		}
		if !noRedact && !bytes.Contains(e.Frame.Raw, []byte("Bearer ****")) {
			t.Errorf("redacted frame %s", e.Frame.Raw)
		}
		r.Close()
	}
}

// TestRedactionAssignment: a secret typed into a tool argument as KEY=VALUE reaches a
// recording masked, though no flag named it and its characters are not ASCII.
func TestRedactionAssignment(t *testing.T) {
	const value = "sk-Ünïcødé-秘密-ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	raw := []byte(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"connect","arguments":{"command":["srv"],"env":["API_TOKEN=` + value + `"]}}}`)
	path := filepath.Join(t.TempDir(), "r.jsonl")
	w, err := recordings.Create(path, recordings.Header{Server: "srv"}, recordings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(&session.Event{Seq: 1, Time: time.Now(), Kind: session.EvFrame, Dir: protocol.ClientToServer, Frame: protocol.Decode(raw)}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if bytes.Contains(data, []byte("秘密")) || bytes.Contains(data, []byte("ABCDEFGHIJKLMNOP")) || !bytes.Contains(data, []byte(`API_TOKEN=****`)) {
		t.Errorf("the typed secret is in the recording:\n%s", data)
	}
	r, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if e, err := r.Event(0); err != nil || !json.Valid(e.Frame.Raw) {
		t.Errorf("the redacted frame is no longer JSON: %v", err)
	}
}

func TestDiff(t *testing.T) {
	cases := []struct {
		name      string
		a, b      string
		ignore    []string
		wantPaths []string
	}{
		{"equal with other member order", `{"a":1,"b":[1,2]}`, `{"b":[1,2],"a":1}`, nil, nil},
		{"numbers by value", `{"a":1.0,"b":1e2}`, `{"a":1,"b":100}`, nil, nil},
		{"changed value", `{"a":{"b":"x"}}`, `{"a":{"b":"y"}}`, nil, []string{"/a/b"}},
		{"type change", `{"a":1}`, `{"a":"1"}`, nil, []string{"/a"}},
		{"member added and removed", `{"a":1}`, `{"b":1}`, nil, []string{"/a", "/b"}},
		{"array longer", `[1,2]`, `[1,2,3]`, nil, []string{"/2"}},
		{"escaped pointer", `{"a/b":{"c~d":1}}`, `{"a/b":{"c~d":2}}`, nil, []string{"/a~1b/c~0d"}},
		{"ignored subtree", `{"result":{"_meta":{"x":1},"v":1}}`, `{"result":{"v":1}}`, []string{"/result/_meta/**"}, nil},
		{"glob segment", `{"result":{"content":[{"text":"a","type":"text"}]}}`, `{"result":{"content":[{"text":"b","type":"image"}]}}`,
			[]string{"/result/content/*/text"}, []string{"/result/content/0/type"}},
		{"any depth", `{"a":{"b":{"sessionId":"1"}},"sessionId":"2"}`, `{"a":{"b":{"sessionId":"3"}},"sessionId":"4"}`, []string{"**/sessionId"}, nil},
		{"not JSON", `abc`, `abd`, nil, []string{""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ig, err := recordings.NewIgnore(c.ignore...)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range recordings.Diff([]byte(c.a), []byte(c.b), ig) {
				got = append(got, d.Path)
			}
			if strings.Join(got, ",") != strings.Join(c.wantPaths, ",") {
				t.Errorf("paths %q, want %q", got, c.wantPaths)
			}
		})
	}
	if _, err := recordings.NewIgnore("result/x"); err == nil {
		t.Error("an ignore pattern without a leading / was accepted")
	}
}

// TestMockHTTP serves a recording over Streamable HTTP and lists its tools through a real
// session: the list is the recorded one; an unrecorded call gets the clear errors.
func TestMockHTTP(t *testing.T) {
	path, events := recordDemo(t, recordings.Options{})
	var all []json.RawMessage // every recorded page, in order
	for _, e := range events {
		if e.Kind == session.EvFrame && e.Dir == protocol.ServerToClient && e.Corr.Method == "tools/list" {
			var res struct {
				Tools []json.RawMessage `json:"tools"`
			}
			_ = json.Unmarshal(e.Frame.Result, &res)
			all = append(all, res.Tools...)
		}
	}
	recordedList, _ := json.Marshal(all)
	s := session.New(session.Config{Transport: transport.NewStreamableHTTP(transport.HTTPOptions{URL: serveMock(t, path)})})
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	if got := s.Info().Revision; got != "2025-11-25" {
		t.Errorf("mock handshake chose %s, want the recorded 2025-11-25", got)
	}
	tools, err := s.List(ctx, session.ListTools)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := json.Marshal(tools)
	if d := recordings.Diff(recordedList, page, nil); len(all) < 11 || len(d) > 0 {
		t.Errorf("mock tools/list (%d tools) differs from the recorded pages: %v", len(all), d)
	}
	resp, err := s.Call(ctx, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "hello recording"}})
	if err != nil || !strings.Contains(string(resp.Result), "hello recording") {
		t.Errorf("recorded call: %v %s", err, resp.Result)
	}
	_, err = s.Call(ctx, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "something else"}})
	var rpc *session.RPCError
	if !errors.As(err, &rpc) || rpc.Code != protocol.InvalidParams || !strings.Contains(string(rpc.Data), "hello recording") {
		t.Errorf("unrecorded params: %v", err)
	}
	_, err = s.Call(ctx, "prompts/list", nil)
	if !errors.As(err, &rpc) || rpc.Code != protocol.MethodNotFound || !strings.Contains(rpc.Message, "not in the recording") {
		t.Errorf("unrecorded method: %v", err)
	}
}

// TestMockOtherEra: a handshake of the era the recording does not hold is refused with
// the revision the recording holds, read from its handshake's answer.
func TestMockOtherEra(t *testing.T) {
	for _, c := range []struct{ recorded, asked, want string }{
		{"2025-11-25", "2026-07-28", "holds a stateful session (initialize, protocol 2025-11-25)"},
		{"2026-07-28", "2025-11-25", "holds a stateless session (server/discover, protocol 2026-07-28)"},
	} {
		t.Run(c.recorded, func(t *testing.T) {
			path, _ := recordDemoAt(t, recordings.Options{}, c.recorded)
			s := session.New(session.Config{Protocol: c.asked, Transport: transport.NewStreamableHTTP(transport.HTTPOptions{URL: serveMock(t, path)})})
			defer s.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			err := s.Connect(ctx)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("connecting with %s to a mock of a %s recording: %v, want an error saying %q", c.asked, c.recorded, err, c.want)
			}
		})
	}
}

// serveMock serves a mock of the recording at path over Streamable HTTP until the test
// ends, and returns its URL.
func serveMock(t *testing.T, path string) string {
	t.Helper()
	tr, err := recordings.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := recordings.NewMock([]*recordings.Transcript{tr}, recordings.MockOptions{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(m.Handler())
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// TestMockTiming: with Timing the answer waits for the recorded latency and carries the
// incoming id; params' _meta does not keep a request from matching.
func TestMockTiming(t *testing.T) {
	path, _ := recordDemo(t, recordings.Options{})
	tr, err := recordings.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var latency time.Duration
	for e := range tr.Frames() {
		if e.Event.Kind == session.EvFrame && e.Event.Corr.Method == "tools/call" && e.Event.Frame.Kind == protocol.KindResult {
			latency = e.Event.Corr.Latency
		}
	}
	if latency <= 0 {
		t.Fatal("no recorded tools/call latency")
	}
	m, err := recordings.NewMock([]*recordings.Transcript{tr}, recordings.MockOptions{Timing: true})
	if err != nil {
		t.Fatal(err)
	}
	req := `{"jsonrpc":"2.0","id":"x-1","method":"tools/call","params":{"_meta":{"progressToken":9},"arguments":{"text":"hello recording"},"name":"echo"}}`
	start := time.Now()
	out := m.Handle(context.Background(), []byte(req))
	if el := time.Since(start); el < latency {
		t.Errorf("answered after %v, the recorded latency is %v", el, latency)
	}
	f := protocol.Decode(out)
	if f.Kind != protocol.KindResult || f.ID.String() != `"x-1"` || !strings.Contains(string(f.Result), "hello recording") {
		t.Errorf("mock answered %s", out)
	}
}
