package cli_test

import (
	"bytes"
	"encoding/json"
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
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport/sse"
)

// rawExchange is one HTTP exchange as a client saw it.
type rawExchange struct {
	status  int
	header  http.Header
	body    []byte
	events  []sse.Event
	arrived []time.Time // when each event was read
}

// rawClient sends requests without compression or anything else added.
var rawClient = &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: waitLimit}

// post sends body to u (with the session id, when given) and reads the whole answer,
// event by event when it is an event stream.
func post(t *testing.T, method, u, session, body string) rawExchange {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer tap-test-secret-value")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	resp, err := rawClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	ex := rawExchange{status: resp.StatusCode, header: resp.Header}
	var buf bytes.Buffer
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		p := sse.NewParser(io.TeeReader(resp.Body, &buf), 0)
		for {
			ev, err := p.Next()
			if err != nil {
				break
			}
			ex.events = append(ex.events, ev)
			ex.arrived = append(ex.arrived, time.Now())
		}
	} else if _, err := io.Copy(&buf, resp.Body); err != nil {
		t.Fatalf("%s %s: read the body: %v", method, u, err)
	}
	ex.body = buf.Bytes()
	return ex
}

// data is the frames of an exchange: its event data, or its JSON body.
func (ex rawExchange) data() []string {
	if ex.events == nil {
		if len(ex.body) == 0 {
			return nil
		}
		return []string{string(ex.body)}
	}
	var out []string
	for _, e := range ex.events {
		if e.HasData {
			out = append(out, e.Data)
		}
	}
	return out
}

// TestTapHTTPByteIdentity sends the same raw requests to the reference server directly and
// through the tap's reverse proxy: same status, key headers and frames, the event stream
// passed on event by event, and the recording holds exactly the bytes that passed.
func TestTapHTTPByteIdentity(t *testing.T) {
	t.Parallel()
	tapHTTPByteIdentity(t)
}

// TestTapHTTPByteIdentityWithRules is TestTapHTTPByteIdentity with fault rules, of every
// action, that match nothing the script sends: every byte still passes as it came, the
// event stream still event by event.
func TestTapHTTPByteIdentityWithRules(t *testing.T) {
	t.Parallel()
	tapHTTPByteIdentity(t, "--fault", "error=-32603 tool:=no-such-tool", "--fault", "drop method:=no/such/method p=1",
		"--fault", "corrupt=truncate dir:in id:999", "--fault", "disconnect method:=no/such", "--fault", "throttle=10/s tool:=nothing",
		"--fault", "reorder method:=never/sent", "--fault", "delay=5s method:=not/this", "--seed", "3")
}

func tapHTTPByteIdentity(t *testing.T, rules ...string) {
	base := sessiontest.StartEverythingHTTP(t, "streamableHttp")
	bin := sessiontest.BuildMCPScope(t)
	rec := filepath.Join(t.TempDir(), "http.jsonl")
	args := append([]string{"tap", "--listen", "127.0.0.1:0", "--upstream", base + "/mcp", "--record", rec, "--name", "web"}, rules...)
	p := start(t, tapEnv(t), bin, args...)
	p.waitStderr("watch with")
	m := regexp.MustCompile(`listening on (http://\S+)`).FindStringSubmatch(p.stderrText())
	if m == nil {
		t.Fatalf("the tap did not say where it listens:\n%s", p.stderrText())
	}
	tapURL := m[1]
	if !strings.HasSuffix(tapURL, "/mcp") {
		t.Fatalf("tap URL %s does not keep the upstream's path", tapURL)
	}

	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"tap-test","version":"1"}}}`
	steps := []string{
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`  {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get-sum","arguments":{"a":1,"b":2}}}` + "\n",
	}
	var sent []string
	var tapped []rawExchange
	compare := func(d, tp rawExchange, what string) {
		t.Helper()
		if d.status != tp.status {
			t.Errorf("%s: status %d through the tap, %d direct", what, tp.status, d.status)
		}
		for _, h := range []string{"Content-Type", "Cache-Control"} {
			if d.header.Get(h) != tp.header.Get(h) {
				t.Errorf("%s: %s %q through the tap, %q direct", what, h, tp.header.Get(h), d.header.Get(h))
			}
		}
		if (d.header.Get("Mcp-Session-Id") == "") != (tp.header.Get("Mcp-Session-Id") == "") {
			t.Errorf("%s: Mcp-Session-Id %q through the tap, %q direct", what, tp.header.Get("Mcp-Session-Id"), d.header.Get("Mcp-Session-Id"))
		}
		if dd, td := d.data(), tp.data(); strings.Join(dd, "\n") != strings.Join(td, "\n") {
			t.Errorf("%s: frames through the tap %q, direct %q", what, td, dd)
		}
	}
	d := post(t, http.MethodPost, base+"/mcp", "", init)
	tp := post(t, http.MethodPost, tapURL, "", init)
	compare(d, tp, "initialize")
	sent, tapped = append(sent, init), append(tapped, tp)
	dSession, tSession := d.header.Get("Mcp-Session-Id"), tp.header.Get("Mcp-Session-Id")
	for _, body := range steps {
		d := post(t, http.MethodPost, base+"/mcp", dSession, body)
		tp := post(t, http.MethodPost, tapURL, tSession, body)
		compare(d, tp, body)
		sent, tapped = append(sent, body), append(tapped, tp)
	}

	// A long operation's progress arrives event by event, not all at the end.
	long := `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"trigger-long-running-operation","arguments":{"duration":2,"steps":2},"_meta":{"progressToken":"p1"}}}`
	tp = post(t, http.MethodPost, tapURL, tSession, long)
	sent, tapped = append(sent, long), append(tapped, tp)
	if n := len(tp.events); n < 3 {
		t.Fatalf("long operation through the tap: %d events, want 2 progress and the result: %q", n, tp.body)
	}
	if gap := tp.arrived[len(tp.arrived)-1].Sub(tp.arrived[0]); gap < 500*time.Millisecond {
		t.Errorf("the first progress event came %s before the result: the stream was not passed on as it came", gap)
	}

	del := post(t, http.MethodDelete, tapURL, tSession, "")
	if dd := post(t, http.MethodDelete, base+"/mcp", dSession, ""); dd.status != del.status {
		t.Errorf("DELETE: status %d through the tap, %d direct", del.status, dd.status)
	}
	p.cmd.Process.Signal(os.Interrupt)
	p.wait(func() bool { return p.ended })
	if p.code != 0 {
		t.Errorf("tap --listen after SIGINT: exit %d\n%s", p.code, p.stderrText())
	}

	// The recording holds every byte that passed, in both directions.
	var wantIn []string
	for _, ex := range tapped {
		wantIn = append(wantIn, ex.data()...)
	}
	var gotOut, gotIn []string
	for _, f := range frames(t, rec, protocol.ClientToServer) {
		gotOut = append(gotOut, string(f))
	}
	for _, f := range frames(t, rec, protocol.ServerToClient) {
		gotIn = append(gotIn, string(f))
	}
	if strings.Join(gotOut, "\x00") != strings.Join(sent, "\x00") {
		t.Errorf("recorded client frames %q, sent %q", gotOut, sent)
	}
	if strings.Join(gotIn, "\x00") != strings.Join(wantIn, "\x00") {
		t.Errorf("recorded server frames %q, received %q", gotIn, wantIn)
	}
	r, err := recordings.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	es, _ := r.Events()
	methods := map[string]int{}
	for _, e := range es {
		if h := e.Event.HTTP; h != nil {
			methods[h.Method]++
			if a := h.ReqHeaders.Get("Authorization"); strings.Contains(a, "tap-test-secret") || a == "" {
				t.Errorf("exchange %d: Authorization recorded as %q", h.ID, a)
			}
		}
	}
	if methods["POST"] != len(sent) || methods["DELETE"] != 1 {
		t.Errorf("recorded exchanges by method %v, want %d POST and 1 DELETE", methods, len(sent))
	}
}

// TestTapAttach starts a stdio tap and watches it with two viewers at once: both see the
// live traffic, from the start, until the tap ends. The socket is private, the name is
// unique, and --list shows the tap.
func TestTapAttach(t *testing.T) {
	node, index := sessiontest.NodePath(t), sessiontest.Everything(t)
	bin := sessiontest.BuildMCPScope(t)
	env := tapEnv(t)
	runtimeDir := strings.TrimPrefix(env[0], "XDG_RUNTIME_DIR=")

	tap := start(t, env, bin, "tap", "--name", "live1", "--", node, index, "stdio")
	tap.waitStderr("watch with: mcpscope attach live1")
	sock := filepath.Join(runtimeDir, "mcpscope", "live1.sock")
	if fi, err := os.Stat(sock); err != nil || fi.Mode().Perm() != 0o600 || fi.Mode()&os.ModeSocket == 0 {
		t.Errorf("tap socket %s: %v %v, want a socket with mode 0600", sock, fi.Mode(), err)
	}
	if fi, err := os.Stat(filepath.Dir(sock)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("tap directory: %v %v, want 0700", fi.Mode(), err)
	}
	if !strings.Contains(tap.stderrText(), filepath.Join(runtimeDir, "state", "mcpscope", "recordings", "live1-")) {
		t.Errorf("the tap does not record in the default directory:\n%s", tap.stderrText())
	}

	list := start(t, env, bin, "attach", "--list")
	if code := list.exit(); code != 0 || !strings.Contains(list.out.String(), "live1") || !strings.Contains(list.out.String(), "stdio") {
		t.Errorf("attach --list: exit %d\n%s%s", code, list.out.String(), list.errOut.String())
	}
	dup := start(t, env, bin, "tap", "--name", "live1", "--", node, index, "stdio")
	if code := dup.exit(); code != 2 || !strings.Contains(dup.stderrText(), "already running") {
		t.Errorf("a second tap named live1: exit %d\n%s", code, dup.stderrText())
	}

	viewers := []*proc{start(t, env, bin, "attach", "--ndjson", "live1"), start(t, env, bin, "attach", "--ndjson")}
	tap.write(hostScript.initialize)
	tap.waitResponse(1)
	tap.write(hostScript.initialized + hostScript.listHead + hostScript.listTail)
	tap.waitResponse(2)
	seen := func(v *proc, method, dir string) func() bool {
		return func() bool {
			for _, l := range v.lines {
				var e session.EventJSON
				if json.Unmarshal(l, &e) == nil && e.Kind == "frame" && e.Method == method && e.Dir == dir {
					return true
				}
			}
			return false
		}
	}
	for _, v := range viewers {
		v.wait(seen(v, "tools/list", "in"))
	}
	if code := tap.exit(); code != 0 {
		t.Errorf("tap: exit %d\n%s", code, tap.stderrText())
	}
	for i, v := range viewers {
		v.wait(func() bool { return v.ended })
		if v.code != 0 {
			t.Errorf("viewer %d: exit %d\n%s", i, v.code, v.errOut.String())
		}
		var seqs []uint64
		var last session.EventJSON
		for _, l := range v.lines {
			if err := json.Unmarshal(l, &last); err != nil {
				t.Fatalf("viewer %d printed %q: %v", i, l, err)
			}
			seqs = append(seqs, last.Seq)
		}
		for j, s := range seqs {
			if s != uint64(j+1) {
				t.Fatalf("viewer %d: event %d has seq %d: events missing or out of order", i, j, s)
			}
		}
		if last.Kind != "exit" || !v.holds(seen(v, "tools/list", "out")) {
			t.Errorf("viewer %d: last event %s, saw the tools/list request: %v", i, last.Kind, seen(v, "tools/list", "out")())
		}
	}
	if _, err := os.Stat(sock); !os.IsNotExist(err) {
		t.Errorf("the tap's socket is still there after it ended: %v", err)
	}
	none := start(t, env, bin, "attach")
	if code := none.exit(); code != 3 || !strings.Contains(none.errOut.String(), "no live taps (searched "+filepath.Dir(sock)+")") {
		t.Errorf("attach with no tap running: exit %d\n%s", code, none.errOut.String())
	}
	empty := start(t, env, bin, "attach", "--list")
	if code := empty.exit(); code != 0 || empty.out.String() != "" || !strings.Contains(empty.errOut.String(), "no live taps (searched "+filepath.Dir(sock)+")") {
		t.Errorf("attach --list with no tap running: exit %d\n%s%s", code, empty.out.String(), empty.errOut.String())
	}
}

// holds reports whether cond holds now, taking the lock.
func (p *proc) holds(cond func() bool) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return cond()
}
