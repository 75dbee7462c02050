package cli_test

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// startHTTPTap starts a tap in front of the reference server over Streamable HTTP with
// args added, and returns it and the URL the host posts to.
func startHTTPTap(t *testing.T, rec string, args ...string) (*proc, string) {
	t.Helper()
	base := sessiontest.StartEverythingHTTP(t, "streamableHttp")
	bin := sessiontest.BuildMCPScope(t)
	all := append([]string{"tap", "--listen", "127.0.0.1:0", "--upstream", base + "/mcp", "--record", rec, "--name", "webfault"}, args...)
	p := start(t, tapEnv(t), bin, all...)
	p.waitStderr("watch with")
	m := regexp.MustCompile(`listening on (http://\S+)`).FindStringSubmatch(p.stderrText())
	if m == nil {
		t.Fatalf("the tap did not say where it listens:\n%s", p.stderrText())
	}
	return p, m[1]
}

// tryPost is post that reports a failed exchange (a closed connection, a cut stream)
// instead of failing the test: the body is what arrived before the failure.
func tryPost(t *testing.T, u, sessionID, body string) (rawExchange, error) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", sessionID)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := rawClient.Do(req)
	if err != nil {
		return rawExchange{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return rawExchange{status: resp.StatusCode, header: resp.Header, body: b}, err
}

// TestTapHTTPFaults puts the HTTP tap with fault rules of every action between a scripted
// host and the reference server over Streamable HTTP: the host gets the error mcpscope
// answers in the server's place (with status 200), tools/list late, a long operation's
// result without its progress events, a truncated ping answer, prompts/list at the
// throttled rate, a closed connection for one call and a cut event stream for another;
// the server's request for sampling is answered with an error in the host's place and
// never reaches the host; answers no rule matched are the server's bytes, and the
// recording holds every fault and each answer made by mcpscope.
func TestTapHTTPFaults(t *testing.T) {
	t.Parallel()
	rec := filepath.Join(t.TempDir(), "faults.jsonl")
	p, u := startHTTPTap(t, rec,
		"--fault", "error=-32603 tool:=get-sum",
		"--fault", "delay=500ms method:=tools/list dir:in",
		"--fault", "drop method:=notifications/progress",
		"--fault", "corrupt=truncate method:=ping dir:in",
		"--fault", "throttle=400/s method:=prompts/list dir:in",
		"--fault", "disconnect tool:=echo",
		"--fault", "disconnect method:=resources/templates/list dir:in",
		"--fault", "error=-32601:nosampling method:=sampling/createMessage")

	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"sampling":{}},"clientInfo":{"name":"tap-test","version":"1"}}}`
	ini := post(t, http.MethodPost, u, "", init)
	sid := ini.header.Get("Mcp-Session-Id")
	if ini.status != http.StatusOK || sid == "" {
		t.Fatalf("initialize through the tap: status %d, session %q: %s", ini.status, sid, ini.body)
	}
	if x := post(t, http.MethodPost, u, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); x.status != http.StatusAccepted {
		t.Fatalf("notifications/initialized: status %d", x.status)
	}

	sent := time.Now()
	list := post(t, http.MethodPost, u, sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if took := time.Since(sent); took < 500*time.Millisecond || len(list.data()) != 1 {
		t.Errorf("tools/list answered after %s with %d messages, want one, after at least the 500ms delay", took, len(list.data()))
	}

	sum := post(t, http.MethodPost, u, sid, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get-sum","arguments":{"a":1,"b":2}}}`)
	if want := `{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"injected by mcpscope"}}`; sum.status != http.StatusOK ||
		string(sum.body) != want || !strings.HasPrefix(sum.header.Get("Content-Type"), "application/json") {
		t.Errorf("get-sum: status %d, %s, body %s; want 200, JSON, %s", sum.status, sum.header.Get("Content-Type"), sum.body, want)
	}

	long := post(t, http.MethodPost, u, sid, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"trigger-long-running-operation","arguments":{"duration":0.3,"steps":3},"_meta":{"progressToken":"p5"}}}`)
	if d := long.data(); len(d) != 1 || protocol.Decode([]byte(d[0])).ID.String() != "5" {
		t.Errorf("the long operation's stream carried %q, want its result alone (no progress)", d)
	}

	ping := post(t, http.MethodPost, u, sid, `{"jsonrpc":"2.0","id":6,"method":"ping"}`)

	sent = time.Now()
	prompts := post(t, http.MethodPost, u, sid, `{"jsonrpc":"2.0","id":7,"method":"prompts/list"}`)
	took := time.Since(sent)
	if len(prompts.data()) != 1 {
		t.Fatalf("prompts/list: %q", prompts.body)
	}
	if least := time.Duration(float64(len(prompts.body)) / 400 * 0.8 * float64(time.Second)); took < least {
		t.Errorf("prompts/list (%d bytes) came in %s through throttle=400/s, want at least %s", len(prompts.body), took, least)
	}

	if x, err := tryPost(t, u, sid, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`); err == nil {
		t.Errorf("the echo call was answered (status %d, %s), want the connection closed", x.status, x.body)
	}
	if x, err := tryPost(t, u, sid, `{"jsonrpc":"2.0","id":9,"method":"resources/templates/list"}`); err == nil || bytes.Contains(x.body, []byte(`"id":9`)) {
		t.Errorf("resources/templates/list: %v, body %s; want the stream cut before its answer", err, x.body)
	}

	sampling := post(t, http.MethodPost, u, sid, `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"trigger-sampling-request","arguments":{"prompt":"hi","maxTokens":5}}}`)
	for _, d := range sampling.data() {
		if f := protocol.Decode([]byte(d)); f.Method == "sampling/createMessage" {
			t.Errorf("the server's sampling request reached the host: %s", d)
		}
	}
	if d := sampling.data(); len(d) != 1 || !strings.Contains(d[0], "nosampling") {
		t.Errorf("the sampling call was answered %q, want the server's word on the error mcpscope answered", d)
	}
	post(t, http.MethodDelete, u, sid, "")
	p.cmd.Process.Signal(os.Interrupt)
	p.wait(func() bool { return p.ended })

	r, err := recordings.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	es, _ := r.Events()
	var notes []string
	var viaUs []string
	recorded := map[string][]byte{} // the server's own answers, as recorded
	progress := 0
	for _, e := range es {
		ev := e.Event
		switch {
		case ev.Kind == session.EvTransport && ev.Note == fault.NoteKind:
			notes = append(notes, ev.Text[:strings.IndexByte(ev.Text, '\n')])
		case ev.Kind == session.EvFrame && ev.Recv.Via == fault.ViaMcpscope:
			viaUs = append(viaUs, ev.Dir.String()+" "+ev.Frame.ID.String())
		case ev.Kind == session.EvFrame && ev.Frame.Method == "notifications/progress":
			progress++
		case ev.Kind == session.EvFrame && ev.Dir == protocol.ServerToClient && ev.Frame.Kind.IsResponse():
			recorded[ev.Frame.ID.String()] = ev.Frame.Raw
		}
	}
	if _, ok := recorded["3"]; ok {
		t.Error("the server answered the get-sum call it should never have seen")
	}
	if _, ok := recorded["8"]; ok {
		t.Error("the server answered the echo call the tap cut")
	}
	if progress != 3 {
		t.Errorf("recorded %d progress notifications, want the 3 the server sent", progress)
	}
	want := []string{"delay 500ms (rule 2", "error: answered by mcpscope (rule 1", "dropped (rule 3", "dropped (rule 3",
		"dropped (rule 3", "corrupt truncate (rule 4", "throttle 400/s (rule 5", "disconnected (rule 6", "disconnected (rule 7",
		"error: answered by mcpscope (rule 8"}
	if len(notes) != len(want) {
		t.Fatalf("fault notes:\n%s\nwant %d", strings.Join(notes, "\n"), len(want))
	}
	for i := range want {
		if !strings.HasPrefix(notes[i], want[i]) {
			t.Errorf("fault note %d: %s, want %s…", i, notes[i], want[i])
		}
	}
	if len(viaUs) != 2 || viaUs[0] != protocol.ServerToClient.String()+" 3" || !strings.HasPrefix(viaUs[1], protocol.ClientToServer.String()) {
		t.Errorf("answers made by mcpscope recorded as %q, want the get-sum error to the host and the sampling error to the server", viaUs)
	}
	for id, x := range map[string]rawExchange{"1": ini, "2": list, "7": prompts} {
		if d := x.data(); len(d) != 1 || d[0] != string(recorded[id]) {
			t.Errorf("answer %s reached the host as %q, the server sent %q", id, d, recorded[id])
		}
	}
	if pr := recorded["6"]; len(pr) == 0 || len(ping.data()) != 1 || ping.data()[0] != string(pr[:len(pr)/2]) {
		t.Errorf("the ping answer reached the host as %q, want the first half of %q", ping.data(), pr)
	}
}

// TestTapHTTPFaultReorder: a reorder rule holds a ping the host posts (its exchange
// waits) until the next ping has passed; then it goes on, as it came, and is answered.
func TestTapHTTPFaultReorder(t *testing.T) {
	t.Parallel()
	rec := filepath.Join(t.TempDir(), "reorder.jsonl")
	_, u := startHTTPTap(t, rec, "--fault", "reorder method:=ping dir:out times=1")
	ini := post(t, http.MethodPost, u, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"tap-test","version":"1"}}}`)
	sid := ini.header.Get("Mcp-Session-Id")
	post(t, http.MethodPost, u, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	held := make(chan rawExchange, 1)
	go func() {
		x, _ := tryPost(t, u, sid, `{"jsonrpc":"2.0","id":20,"method":"ping"}`)
		held <- x
	}()
	deadline := time.Now().Add(waitLimit)
	for !fileHas(rec, `reorder: held`) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case x := <-held:
		t.Fatalf("the held ping was answered before the next one passed: %s", x.body)
	default:
	}
	next := post(t, http.MethodPost, u, sid, `{"jsonrpc":"2.0","id":21,"method":"ping"}`)
	if d := next.data(); len(d) != 1 || protocol.Decode([]byte(d[0])).ID.String() != "21" {
		t.Errorf("the second ping got %q", d)
	}
	select {
	case x := <-held:
		if !bytes.Contains(x.body, []byte(`"id":20}`)) {
			t.Errorf("the held ping got %q, want its answer", x.body)
		}
	case <-time.After(waitLimit):
		t.Fatal("the held ping was never let go")
	}
}

// fileHas reports whether the file at path holds s.
func fileHas(path, s string) bool {
	b, _ := os.ReadFile(path)
	return bytes.Contains(b, []byte(s))
}
