package apphost_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/apps"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/apphost"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sessiontest.Cleanup()
	os.Exit(code)
}

// timeline collects a session's events for the test to wait on.
type timeline struct {
	mu  sync.Mutex
	evs []*session.Event
}

func watch(t *testing.T, s *session.Session) *timeline {
	tl := &timeline{}
	sub := s.SubscribeWith(session.SubscribeOptions{Lossless: true})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			evs, ok := sub.Next(ctx, 256)
			if !ok {
				return
			}
			tl.mu.Lock()
			tl.evs = append(tl.evs, evs...)
			tl.mu.Unlock()
		}
	}()
	t.Cleanup(func() { cancel(); sub.Close(); <-done })
	return tl
}

// step is one expected message: its lane direction ("app→host", "host→app", or "out"
// and "in" on the wire), kind and method (for a response: the request's method).
type step struct{ dir, kind, method string }

func describe(e *session.Event) step {
	d := e.Dir.String()
	if e.Lane == session.LaneApp {
		d = session.AppDirection(e.Dir)
	}
	m := e.Frame.Method
	if m == "" {
		m = e.Corr.Method
	}
	return step{d, e.Frame.Kind.String(), m}
}

// waitSteps waits until the frames after from contain want in order (other frames may come
// between) and returns the matched events.
func (tl *timeline) waitSteps(t *testing.T, from int, want ...step) []*session.Event {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		tl.mu.Lock()
		var got []*session.Event
		i := 0
		for _, e := range tl.evs[min(from, len(tl.evs)):] {
			if i < len(want) && e.Kind == session.EvFrame && describe(e) == want[i] {
				got = append(got, e)
				i++
			}
		}
		all := tl.dump()
		tl.mu.Unlock()
		if i == len(want) {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited 30s for %v (matched %d); the timeline:\n%s", want, i, all)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (tl *timeline) len() int {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	return len(tl.evs)
}

func (tl *timeline) dump() string {
	var b strings.Builder
	for _, e := range tl.evs {
		fmt.Fprintf(&b, "  #%d %s lane=%q\n", e.Seq, e.Summary(), e.Lane)
	}
	return b.String()
}

func connect(t *testing.T, tr transport.Transport) *session.Session {
	t.Helper()
	s := session.New(session.Config{Transport: tr})
	t.Cleanup(func() { _ = s.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatalf("connect: %v", err)
	}
	return s
}

func toolsOf(t *testing.T, s *session.Session) []json.RawMessage {
	t.Helper()
	tools, err := s.List(context.Background(), session.ListTools)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	return tools
}

func toolNamed(t *testing.T, tools []json.RawMessage, name string) json.RawMessage {
	t.Helper()
	for _, raw := range tools {
		var def struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(raw, &def) == nil && def.Name == name {
			return raw
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}

var handshake = []step{
	{"app→host", "notification", apps.MethodSandboxProxyReady},
	{"host→app", "notification", apps.MethodSandboxResource},
	{"app→host", "request", apps.MethodInitialize},
	{"host→app", "result", apps.MethodInitialize},
	{"app→host", "notification", apps.MethodInitialized},
	{"host→app", "notification", apps.MethodToolInput},
	{"host→app", "notification", apps.MethodToolResult},
}

// TestDemoAppInBrowser hosts the demo's dice app in chromium: the whole lifecycle in
// order, the app-only tool the app calls forwarded and answered, the model's tool it calls
// refused, the size it reports, the teardown; and the model side may not run the app-only
// tool.
func TestDemoAppInBrowser(t *testing.T) {
	bctx := sessiontest.Chromium(t)
	streamable, _ := sessiontest.StartDemoHTTP(t)
	s := connect(t, transport.NewStreamableHTTP(transport.HTTPOptions{URL: streamable}))
	tl := watch(t, s)
	tools := toolsOf(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	if _, err := apphost.Start(ctx, apphost.Config{Session: s, Tool: toolNamed(t, tools, "view_dice_reroll"), Tools: tools}); !errors.Is(err, apphost.ErrAppOnly) {
		t.Fatalf("the model side ran the app-only view_dice_reroll: err = %v, want ErrAppOnly", err)
	}

	var mu sync.Mutex
	var notices []string
	h, err := apphost.Start(ctx, apphost.Config{Session: s, Tool: toolNamed(t, tools, "view_dice"), Tools: tools,
		Arguments: map[string]any{"sides": 8, "count": 3},
		Notice:    func(text string) { mu.Lock(); notices = append(notices, text); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(bctx, chromedp.Navigate(h.URL())); err != nil {
		t.Fatal(err)
	}
	got := tl.waitSteps(t, 0, handshake...)
	if code := status(t, localClient(t), http.MethodGet, h.URL(), "", nil); code != http.StatusForbidden {
		t.Errorf("the address the browser opened, used again: %d, want 403 (its token is one-time)", code)
	}
	if got[3].Corr.RequestSeq != got[2].Seq || got[3].Corr.Latency <= 0 {
		t.Errorf("the ui/initialize answer is not paired with its request: %+v", got[3].Corr)
	}
	var init struct {
		Result struct {
			ProtocolVersion  string                     `json:"protocolVersion"`
			HostCapabilities map[string]json.RawMessage `json:"hostCapabilities"`
			HostContext      struct {
				Theme               string         `json:"theme"`
				DisplayMode         string         `json:"displayMode"`
				ContainerDimensions map[string]int `json:"containerDimensions"`
				ToolInfo            struct {
					ID   json.RawMessage `json:"id"`
					Tool struct {
						Name string `json:"name"`
					} `json:"tool"`
				} `json:"toolInfo"`
			} `json:"hostContext"`
		} `json:"result"`
	}
	if err := json.Unmarshal(got[3].Frame.Raw, &init); err != nil {
		t.Fatal(err)
	}
	r := init.Result
	if r.ProtocolVersion != apps.ProtocolVersion || r.HostContext.Theme != "light" || r.HostContext.DisplayMode != "inline" ||
		r.HostContext.ToolInfo.Tool.Name != "view_dice" || len(r.HostContext.ToolInfo.ID) == 0 ||
		r.HostContext.ContainerDimensions["maxWidth"] == 0 || r.HostCapabilities["serverTools"] == nil {
		t.Errorf("ui/initialize answer lacks the host context or capabilities:\n%s", got[3].Frame.Raw)
	}
	if !strings.Contains(string(got[5].Frame.Raw), `"sides":8`) || !strings.Contains(string(got[6].Frame.Raw), `"rolls"`) {
		t.Errorf("tool input or result not sent:\n%s\n%s", got[5].Frame.Raw, got[6].Frame.Raw)
	}
	for _, e := range got {
		for _, f := range e.Frame.Findings {
			t.Errorf("%s: unexpected finding %s: %s", e.Summary(), f.Code, f.Message)
		}
	}
	tl.waitSteps(t, 0, step{"app→host", "notification", apps.MethodSizeChanged})
	checkPolicyEnforced(t, bctx)
	tl.waitSteps(t, 0, step{"app→host", "request", apps.MethodUpdateModelContext}, step{"host→app", "result", apps.MethodUpdateModelContext})
	mu.Lock()
	if len(notices) == 0 || !strings.Contains(notices[0], "The dice app shows") {
		t.Errorf("ui/update-model-context was not shown to the user: %q", notices)
	}
	mu.Unlock()

	// The app's button calls the app-only view_dice_reroll: forwarded, marked as the app's.
	mark := tl.len()
	click(t, bctx, "#again")
	call := tl.waitSteps(t, mark,
		step{"app→host", "request", "tools/call"},
		step{"out", "request", "tools/call"},
		step{"in", "result", "tools/call"},
		step{"host→app", "result", "tools/call"})
	if call[1].Corr.AppSeq != call[0].Seq || call[2].Corr.AppSeq != call[0].Seq {
		t.Errorf("the server call is not marked as the app's: request %+v, response %+v", call[1].Corr, call[2].Corr)
	}
	if call[3].Corr.RequestSeq != call[0].Seq || !strings.Contains(string(call[3].Frame.Raw), `"rolls"`) {
		t.Errorf("the app's answer is not paired or lacks the result: %+v\n%s", call[3].Corr, call[3].Frame.Raw)
	}

	// The other button calls view_dice, whose visibility is ["model"]: refused, not forwarded.
	mark = tl.len()
	click(t, bctx, "#model")
	ref := tl.waitSteps(t, mark,
		step{"app→host", "request", "tools/call"},
		step{"host→app", "error", "tools/call"})
	if !hasFinding(ref[1], protocol.FindAppRefused) || !strings.Contains(string(ref[1].Frame.Raw), "not visible to apps") {
		t.Errorf("the refusal lacks its finding or reason: %s %v", ref[1].Frame.Raw, ref[1].Frame.Findings)
	}
	tl.mu.Lock()
	for _, e := range tl.evs[mark:] {
		if e.Lane == "" && e.Kind == session.EvFrame && e.Corr.AppSeq == ref[0].Seq {
			t.Errorf("the refused call reached the server: %s", e.Summary())
		}
	}
	tl.mu.Unlock()

	tl.mu.Lock()
	for _, e := range tl.evs {
		if e.Kind == session.EvFrame && e.Lane == "" && len(e.Frame.Findings) > 0 {
			t.Errorf("the demo's frame %s has findings %v", e.Summary(), e.Frame.Findings)
		}
	}
	tl.mu.Unlock()

	mark = tl.len()
	h.Close(5 * time.Second)
	tl.waitSteps(t, mark,
		step{"host→app", "request", apps.MethodResourceTeardown},
		step{"app→host", "result", apps.MethodResourceTeardown})
}

// TestBasicAppInBrowser hosts the app of a real MCP Apps server from npm
// (@modelcontextprotocol/server-basic-vanillajs, pinned): the lifecycle in order, and its
// "Get Server Time" button's tools/call forwarded to the server and answered.
func TestBasicAppInBrowser(t *testing.T) {
	bctx := sessiontest.Chromium(t)
	index := sessiontest.BasicApp(t)
	s := connect(t, transport.NewStdio(transport.StdioOptions{Command: sessiontest.NodePath(t), Args: []string{index, "--stdio"}}))
	tl := watch(t, s)
	tools := toolsOf(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var mu sync.Mutex
	var asked []apphost.Question
	var opened []string
	h, err := apphost.Start(ctx, apphost.Config{Session: s, Tool: toolNamed(t, tools, "get-time"), Tools: tools,
		// The user refuses the message and accepts the link.
		Ask: func(_ context.Context, q apphost.Question) bool {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, q)
			return q.Method == apps.MethodOpenLink
		},
		OpenURL: func(u string) error { mu.Lock(); opened = append(opened, u); mu.Unlock(); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(0)
	if err := chromedp.Do(bctx, chromedp.Navigate(h.URL())); err != nil {
		t.Fatal(err)
	}
	tl.waitSteps(t, 0, handshake...)
	mark := tl.len()
	click(t, bctx, "button")
	call := tl.waitSteps(t, mark,
		step{"app→host", "request", "tools/call"},
		step{"out", "request", "tools/call"},
		step{"in", "result", "tools/call"},
		step{"host→app", "result", "tools/call"})
	if call[1].Corr.AppSeq != call[0].Seq || call[3].Corr.RequestSeq != call[0].Seq {
		t.Errorf("the forwarded call is not tied to the app's request: %+v %+v", call[1].Corr, call[3].Corr)
	}

	// ui/message and ui/open-link are put to the user: refused, the app gets an error with
	// the app.refused finding; accepted, the link is opened.
	mark = tl.len()
	click(t, bctx, "#send-message-btn")
	msg := tl.waitSteps(t, mark, step{"app→host", "request", apps.MethodMessage}, step{"host→app", "error", apps.MethodMessage})
	if !hasFinding(msg[1], protocol.FindAppRefused) {
		t.Errorf("a refused ui/message lacks app.refused: %s", msg[1].Frame.Raw)
	}
	mark = tl.len()
	click(t, bctx, "#open-link-btn")
	tl.waitSteps(t, mark, step{"app→host", "request", apps.MethodOpenLink}, step{"host→app", "result", apps.MethodOpenLink})
	mark = tl.len()
	click(t, bctx, "#send-log-btn")
	tl.waitSteps(t, mark, step{"app→host", "notification", "notifications/message"})
	// A reload is a new view: it gets the call again. Leaving the page closes the host.
	mark = tl.len()
	if err := chromedp.Do(bctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	tl.waitSteps(t, mark, handshake...)
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-h.Closed():
	case <-time.After(20 * time.Second):
		t.Error("leaving the page did not close the host")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 2 || asked[0].Method != apps.MethodMessage || asked[1].Method != apps.MethodOpenLink ||
		len(opened) != 1 || opened[0] != asked[1].Text || !strings.HasPrefix(opened[0], "http") {
		t.Errorf("questions %+v, opened %v: want the message refused, then the link asked and opened", asked, opened)
	}
}

// click clicks the first enabled element matching selector in the view (the srcdoc frame
// inside the sandbox), waiting for it to be enabled.
func click(t *testing.T, bctx context.Context, selector string) {
	t.Helper()
	expr := fmt.Sprintf(`(() => { const b = document.querySelector(%q); if (!b || b.disabled) return false; b.click(); return true; })()`, selector)
	deadline := time.Now().Add(20 * time.Second)
	for {
		v, err := sessiontest.EvalInFrame(bctx, "about:srcdoc", expr)
		if err == nil && v == "true" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("could not click %s in the view: %v %s", selector, err, v)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func hasFinding(e *session.Event, code string) bool {
	for _, f := range e.Frame.Findings {
		if f.Code == code {
			return true
		}
	}
	return false
}

// checkServing: once the page has loaded, its address is spent; both origins refuse a
// request without what they need (the page's cookie, the sandbox's token) or with a Host
// header other than their name; the sandbox runs under the resource's policy (the demo
// declares none: the spec's default).
func checkServing(t *testing.T, h *apphost.Host, p *page) {
	t.Helper()
	set := p.resp.Header.Values("Set-Cookie")
	if len(set) != 1 || !strings.Contains(set[0], "; HttpOnly") || !strings.Contains(set[0], "; SameSite=Strict") ||
		!strings.Contains(set[0], "; Path=/") || strings.Contains(strings.ToLower(set[0]), "domain=") {
		t.Errorf("the first load set %q, want one HttpOnly host-only SameSite=Strict cookie", set)
	}
	_, once, _ := strings.Cut(h.URL(), "?t=")
	cookie, _, _ := strings.Cut(set[0], ";")
	if strings.Contains(p.body, once) || strings.Contains(p.body, strings.TrimPrefix(cookie, "mcpscope_host=")) {
		t.Error("the page holds its one-time token or its cookie")
	}
	fresh := localClient(t)
	for _, u := range []string{h.URL(), p.base + "/", p.base + "/?t=wrong", p.base + "/events", h.SandboxOrigin() + "/sandbox",
		h.SandboxOrigin() + "/sandbox?t=" + once} {
		if code := status(t, fresh, http.MethodGet, u, "", nil); code != http.StatusForbidden {
			t.Errorf("GET %s without the cookie: %d, want 403", u, code)
		}
	}
	if code := status(t, fresh, http.MethodPost, p.base+"/post", "", strings.NewReader(`{}`)); code != http.StatusForbidden {
		t.Errorf("POST /post without the cookie: %d, want 403", code)
	}
	if code := status(t, p.c, http.MethodGet, p.base+"/", "", nil); code != http.StatusOK {
		t.Errorf("GET / with the cookie (a reload): %d, want 200", code)
	}
	if h.SandboxOrigin() == p.base {
		t.Error("the sandbox shares the host page's origin")
	}
	// The same listeners by their address, not their names: another Host, refused.
	for origin, path := range map[string]string{p.base: "/", h.SandboxOrigin(): "/sandbox?t=" + p.sandToken} {
		_, port, _ := net.SplitHostPort(strings.TrimPrefix(origin, "http://"))
		for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port, "evil.example:" + port} {
			req, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1:"+port+path, nil)
			req.Host = host
			req.Header.Set("Cookie", cookie)
			resp, err := fresh.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("GET %s with Host %s: %d, want 403", path, host, resp.StatusCode)
			}
		}
	}
	resp, err := fresh.Get(h.SandboxOrigin() + "/sandbox?t=" + p.sandToken)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if got := resp.Header.Get("Content-Security-Policy"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(got, apps.DefaultCSP) {
		t.Errorf("sandbox: %d, CSP %q, want the spec's default %q", resp.StatusCode, got, apps.DefaultCSP)
	}
}

// TestServeBadInput: what the page relays is recorded even when it is not JSON-RPC; a
// message over the bound, a request without the cookie or with another Host header is
// refused and recorded as nothing.
func TestServeBadInput(t *testing.T) {
	streamable, _ := sessiontest.StartDemoHTTP(t)
	s := connect(t, transport.NewStreamableHTTP(transport.HTTPOptions{URL: streamable}))
	tl := watch(t, s)
	tools := toolsOf(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h, err := apphost.Start(ctx, apphost.Config{Session: s, Tool: toolNamed(t, tools, "view_dice"), Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(0)
	p := openPage(t, h)
	checkServing(t, h, p)
	mark := tl.len()
	if code := p.post("this is not json"); code != http.StatusNoContent {
		t.Errorf("a relayed message: %d", code)
	}
	_, once, _ := strings.Cut(h.URL(), "?t=")
	for _, c := range []struct {
		client          *http.Client
		url, host, body string
		want            int
	}{
		{localClient(t), p.base + "/post", "", `{"jsonrpc":"2.0","method":"x"}`, http.StatusForbidden},
		{localClient(t), p.base + "/post?t=" + once, "", `{"jsonrpc":"2.0","method":"x"}`, http.StatusForbidden},
		{p.c, p.base + "/post", "evil.example:80", `{"jsonrpc":"2.0","method":"x"}`, http.StatusForbidden},
		{p.c, p.base + "/post", "", strings.Repeat("x", apphost.MaxMessageBytes+1), http.StatusRequestEntityTooLarge},
	} {
		if code := status(t, c.client, http.MethodPost, c.url, c.host, strings.NewReader(c.body)); code != c.want {
			t.Errorf("POST %s (Host %q, %d bytes): %d, want %d", c.url, c.host, len(c.body), code, c.want)
		}
	}
	// A last message marks the end: every event published before it is then in tl.
	if code := p.post(`{"jsonrpc":"2.0","method":"ui/notifications/size-changed","params":{"width":1,"height":1}}`); code != http.StatusNoContent {
		t.Errorf("the last relayed message: %d", code)
	}
	tl.waitSteps(t, mark, step{"app→host", "notification", apps.MethodSizeChanged})
	tl.mu.Lock()
	defer tl.mu.Unlock()
	var lane []*session.Event
	for _, e := range tl.evs[mark:] {
		if e.Lane == session.LaneApp {
			lane = append(lane, e)
		}
	}
	if len(lane) != 2 || !hasFinding(lane[0], protocol.FindNotJSON) {
		for _, e := range lane {
			t.Logf("%s", e.Summary())
		}
		t.Fatalf("want exactly the two relayed messages, the first flagged %s", protocol.FindNotJSON)
	}
}

// checkPolicyEnforced: the view runs under the resource's policy (here the spec's default,
// img-src 'self' data:), so an image from another origin is refused by the browser.
func checkPolicyEnforced(t *testing.T, bctx context.Context) {
	t.Helper()
	const expr = `(() => {
		const d = document.documentElement.dataset;
		if (!d.probe) {
			d.probe = "1";
			document.addEventListener("securitypolicyviolation", (e) => { d.violated = e.effectiveDirective; });
			const img = document.createElement("img");
			img.src = "https://example.com/probe.png";
			document.body.appendChild(img);
		}
		return d.violated || false;
	})()`
	deadline := time.Now().Add(20 * time.Second)
	for {
		v, err := sessiontest.EvalInFrame(bctx, "about:srcdoc", expr)
		if err == nil && v != "false" {
			if v != `"img-src"` {
				t.Errorf("the view's policy refused %s, want img-src", v)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the browser did not apply the resource's policy to the view: %v %s", err, v)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
