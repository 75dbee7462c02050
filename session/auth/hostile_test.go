package auth

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/transport"
)

// hostileFlow is a flow for serverURL bound to a real transport's exchanger.
func hostileFlow(t *testing.T, serverURL string, o Options) (*Flow, *exSink) {
	t.Helper()
	x, sink := exchanger(t)
	o.ServerURL = serverURL
	f := New(o)
	f.BindAuth(x)
	return f, sink
}

func TestHostileStalledAS(t *testing.T) {
	old := transport.AuthTimeout
	transport.AuthTimeout = 300 * time.Millisecond
	t.Cleanup(func() { transport.AuthTimeout = old })
	// Headers at once, then a body that never ends; and a server that never answers.
	for name, h := range map[string]http.HandlerFunc{
		"silent": func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() },
		"trickle": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"resource":`)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		},
	} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(h)
			defer srv.Close()
			f, _ := hostileFlow(t, srv.URL+"/mcp", Options{NoBrowser: true})
			start := time.Now()
			err := f.Login(context.Background())
			if err == nil || !strings.Contains(err.Error(), "no complete answer within") {
				t.Fatalf("err = %v", err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v", d)
			}
			if st := f.Status(); st.State != StateFailed || !strings.Contains(st.LastError, "no complete answer") {
				t.Errorf("status = %+v", st)
			}
		})
	}
}

func TestHostileEndlessBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		chunk := []byte(`{"resource":"` + strings.Repeat("a", 4096))
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	f, _ := hostileFlow(t, srv.URL+"/mcp", Options{NoBrowser: true})
	err := f.Login(context.Background())
	if err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("err = %v", err)
	}
}

func TestHostileRedirects(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		okToken(w)
	}))
	defer other.Close()
	as := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/token":
			http.Redirect(w, r, other.URL+"/token", http.StatusTemporaryRedirect)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		}
	}))
	defer as.Close()
	f, sink := hostileFlow(t, as.URL+"/mcp", Options{})
	d := &Discovery{Resource: as.URL + "/mcp", AS: &ServerMetadata{Issuer: as.URL, TokenEndpoint: as.URL + "/token"}}
	for _, method := range []string{"client_secret_post", "client_secret_basic"} {
		rec := &Record{ClientID: "c", ClientSecret: "s3cr3t-client-secret", TokenEndpointAuthMethod: method}
		_, err := f.TokenRequest(context.Background(), StepToken, d, rec, url.Values{"grant_type": {"authorization_code"}, "code": {"the-code-value"}}, nil)
		if err == nil || !strings.Contains(err.Error(), "another origin") {
			t.Errorf("%s: err = %v", method, err)
		}
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the other origin received %d token requests", n)
	}
	_, _, err := f.getJSON(context.Background(), StepResourceMetadata, as.URL+"/loop", &ResourceMetadata{})
	if err == nil || !strings.Contains(err.Error(), "redirects") {
		t.Errorf("loop: err = %v", err)
	}
	for _, ex := range sink.exs {
		if strings.Contains(ex.ReqBody, "s3cr3t") || strings.Contains(ex.ReqBody, "the-code-value") || strings.Contains(ex.ReqHeaders.Get("Authorization"), "czNjcjN0") {
			t.Errorf("secret shown: %+v", ex)
		}
	}
}

func TestHostileMetadata(t *testing.T) {
	var md string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, md)
	}))
	defer srv.Close()
	f, _ := hostileFlow(t, "http://127.0.0.1:9/mcp", Options{})
	for _, c := range []struct{ md, want string }{
		{`{"issuer":"https://evil.example","authorization_endpoint":"https://a/x","token_endpoint":"https://a/t","code_challenge_methods_supported":["S256"]}`, protocol.FindAuthIssuerMismatch},
		{`{"issuer":"ISS","authorization_endpoint":"http://evil.example/authorize","token_endpoint":"https://a/t","code_challenge_methods_supported":["S256"]}`, "not loopback"},
		{`{"issuer":"ISS","authorization_endpoint":"file:///etc/passwd","token_endpoint":"https://a/t","code_challenge_methods_supported":["S256"]}`, "not an https URL"},
		{`{"issuer":"ISS","authorization_endpoint":"https://a/x","token_endpoint":"http://evil.example/token","code_challenge_methods_supported":["S256"]}`, "not loopback"},
	} {
		md = strings.ReplaceAll(c.md, "ISS", srv.URL)
		_, err := f.discoverServer(context.Background(), srv.URL, false)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v", md, err)
		}
	}
	md = `{"issuer":"` + srv.URL + `","authorization_endpoint":"https://as.example/x","token_endpoint":"` + srv.URL + `/t","code_challenge_methods_supported":["S256"]}`
	if _, err := f.discoverServer(context.Background(), srv.URL, false); err != nil {
		t.Errorf("https and loopback endpoints refused: %v", err)
	}
	if endpointRefused("http://mcp.example:8080/token", "http://mcp.example:9000/mcp") != "" {
		t.Error("plain http on the server's own host (already plain http) refused")
	}
}

func TestHostileTokenAnswers(t *testing.T) {
	now := time.Now()
	for _, c := range []struct {
		body       string
		err        string
		typ        string
		expiry     bool
		noExpiryOK bool
	}{
		{body: `{"access_token":"x","token_type":"mac","expires_in":60}`, err: "neither Bearer nor DPoP"},
		{body: `{"access_token":"x","token_type":"bearer","expires_in":60}`, typ: "Bearer", expiry: true},
		{body: `{"access_token":"x","token_type":"Bearer","expires_in":99999999999999999}`, typ: "Bearer", noExpiryOK: true},
		{body: `{"access_token":"x","token_type":"Bearer","expires_in":-5}`, typ: "Bearer", noExpiryOK: true},
		{body: `{"access_token":"x","token_type":"Bearer"}`, typ: "Bearer", noExpiryOK: true},
		{body: `{"access_token":"x"}`, typ: "Bearer", noExpiryOK: true},
	} {
		ts := newTokenServer(t, func(_ int, _ url.Values, _ http.Header, w http.ResponseWriter) { _, _ = io.WriteString(w, c.body) })
		f, _ := hostileFlow(t, ts.URL+"/mcp", Options{})
		d := &Discovery{AS: &ServerMetadata{Issuer: ts.URL, TokenEndpoint: ts.URL}}
		tok, err := f.TokenRequest(context.Background(), StepToken, d, &Record{ClientID: "c"}, url.Values{}, nil)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err = %v", c.body, err)
			}
			continue
		case err != nil:
			t.Errorf("%s: %v", c.body, err)
			continue
		}
		if tok.TokenType != c.typ || (c.expiry && tok.Expiry.Before(now)) || (c.noExpiryOK && !tok.Expiry.IsZero()) {
			t.Errorf("%s: token = %+v", c.body, tok)
		}
	}
}

func TestHostileCallback(t *testing.T) {
	f, sink := hostileFlow(t, "http://127.0.0.1:9/mcp", Options{})
	cb, err := f.listen(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(cb.ln.Addr().String(), "127.0.0.1:") {
		t.Fatalf("listening on %s", cb.ln.Addr())
	}
	get := func(q string) (int, string) {
		t.Helper()
		resp, err := http.Get(cb.redirectURI + "?" + q)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	cb.expect("good-state")
	// A flood of forged redirects: each refused, the flow keeps waiting, a few shown.
	for i := 0; i < 20; i++ {
		if st, _ := get("state=forged&code=evil-code-123"); st != http.StatusBadRequest {
			t.Fatalf("forged redirect: %d", st)
		}
	}
	select {
	case q := <-cb.got:
		t.Fatalf("a forged redirect was accepted: %v", q)
	default:
	}
	st, page := get("state=good-state&error=access_denied&error_description=" + url.QueryEscape("<script>alert(1)</script>"))
	if st != 200 || strings.Contains(page, "<script>") || !strings.Contains(page, "denied") {
		t.Errorf("page %d %q", st, page)
	}
	if st, _ := get("state=good-state&code=second"); st != http.StatusBadRequest {
		t.Errorf("a second response was accepted: %d", st)
	}
	q := <-cb.got
	d := &Discovery{AS: &ServerMetadata{Issuer: "https://as.example"}}
	_, err = f.checkCallback(d, cb, q, "good-state", "verifier")
	if err == nil || !strings.Contains(err.Error(), "denied") || strings.Contains(err.Error(), "<script>alert") && !strings.Contains(err.Error(), `"<script>`) {
		t.Errorf("err = %v", err)
	}
	cb.close()
	if _, err := http.Get(cb.redirectURI); err == nil {
		t.Error("the listener still answers after close")
	}
	refused := 0
	for _, ex := range sink.exs {
		if ex.Step == string(StepCallback) && len(ex.Problems) > 0 && ex.Problems[0].Code == protocol.FindAuthState {
			refused++
		}
		if strings.Contains(ex.URL, "evil-code-123") {
			t.Errorf("code shown: %s", ex.URL)
		}
	}
	if refused != maxRefusalsShown {
		t.Errorf("%d refusals shown, want %d", refused, maxRefusalsShown)
	}
}

func TestHostileRefusesFreshTokens(t *testing.T) {
	f, _ := hostileFlow(t, "http://127.0.0.1:9/mcp", Options{NoPrompt: true})
	f.looked = true
	f.rec = &Record{Key: Key{Resource: "http://127.0.0.1:9/mcp", Issuer: "https://as.example"}, AccessToken: "fresh-token", TokenType: "Bearer", Saved: time.Now()}
	resp := func() *http.Response {
		req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:9/mcp", nil)
		req.Header.Set("Authorization", "Bearer fresh-token")
		return &http.Response{StatusCode: 401, Request: req, Header: http.Header{"Www-Authenticate": {`Bearer error="invalid_token"`}}}
	}
	// The first refusal is worth another authorization (here refused by --no-auth-prompt).
	if _, err := f.Unauthorized(context.Background(), resp()); !errors.Is(err, ErrNoPrompt) {
		t.Fatalf("first: %v", err)
	}
	_, err := f.Unauthorized(context.Background(), resp())
	if err == nil || errors.Is(err, ErrNoPrompt) || !strings.Contains(err.Error(), "refused 2 tokens in a row") {
		t.Fatalf("second: %v", err)
	}
}

func TestHostileStepUpBound(t *testing.T) {
	f, _ := hostileFlow(t, "http://127.0.0.1:9/mcp", Options{NoPrompt: true})
	f.looked = true
	var err error
	for i := 0; i < 10; i++ {
		resp := &http.Response{StatusCode: 403, Header: http.Header{"Www-Authenticate": {`Bearer error="insufficient_scope", scope="s` + strings.Repeat("x", i) + `"`}}}
		if _, err = f.Forbidden(context.Background(), resp); err != nil && strings.Contains(err.Error(), "ever more scope") {
			if i != maxStepUpsAll {
				t.Errorf("gave up at %d", i)
			}
			return
		}
	}
	t.Fatalf("step-ups never bounded: %v", err)
}

func TestHostileMalformedTokenAnswerMasked(t *testing.T) {
	for _, body := range []string{
		`{"access_token":"leaky-access-token-1","refresh_token":"leaky-refresh-token-2", "token_type":"Bearer",`,
		`{"access_token":"leaky-access-token-1","refresh_token":"leaky-refresh-token-2"} trailing`,
		`{"access_token" : "leaky-access-token-1", "refresh_token":"leaky-refresh-token-2` + strings.Repeat("x", 2<<20),
	} {
		ts := newTokenServer(t, func(_ int, _ url.Values, _ http.Header, w http.ResponseWriter) { _, _ = io.WriteString(w, body) })
		f, sink := hostileFlow(t, ts.URL+"/mcp", Options{})
		d := &Discovery{AS: &ServerMetadata{Issuer: ts.URL, TokenEndpoint: ts.URL}}
		_, err := f.TokenRequest(context.Background(), StepToken, d, &Record{ClientID: "c"}, url.Values{}, nil)
		if err == nil {
			t.Errorf("%.60s: accepted", body)
		}
		if strings.Contains(err.Error(), "leaky") {
			t.Errorf("error shows a token: %v", err)
		}
		for _, ex := range sink.exs {
			if strings.Contains(ex.RespBody, "leaky") {
				t.Errorf("%.60s: shown as %.200s", body, ex.RespBody)
			}
		}
	}
}

func TestHostileStoreModes(t *testing.T) {
	dir := t.TempDir() + "/state"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	st := NewFileStore(dir)
	if err := st.Put(&Record{Key: Key{Resource: "https://r.example/mcp", Issuer: "https://as.example"}, AccessToken: "tok", ClientSecret: "s"}); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{dir: 0o700, st.Path(): 0o600} {
		if fi, err := os.Stat(path); err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != want) {
			t.Errorf("%s: %v %v, want %v", path, fi.Mode(), err, want)
		}
	}
}

// TestHostileCallbackFlood: a flood of idle connections to the loopback listener holds no
// more than maxCallbackConns open; the ones beyond are closed at once and the user is told
// once; when the flood ends, the browser's redirect goes through.
func TestHostileCallbackFlood(t *testing.T) {
	f, sink := hostileFlow(t, "http://127.0.0.1:9/mcp", Options{})
	cb, err := f.listen(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	cb.expect("good-state")
	capl := cb.ln.(*capListener)
	const flood = maxCallbackConns + 20
	var conns []net.Conn
	for range flood {
		c, err := net.Dial("tcp", cb.ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: %d open, %d closed at once", what, capl.open.Load(), capl.shed.Load())
			}
		}
	}
	// shed is counted once a connection is closed, so this waits for the whole flood.
	waitFor("the flood's connections beyond the cap closed", func() bool { return capl.shed.Load() == flood-maxCallbackConns })
	// At most the cap held open (fewer only if the server's 5 s header timeout has cut some
	// on a very slow machine).
	if open := capl.open.Load(); open > maxCallbackConns {
		t.Errorf("%d connections held open, want at most %d", open, maxCallbackConns)
	}
	// The ones beyond the cap were closed: reading them ends at once.
	closed := 0
	for _, c := range conns {
		_ = c.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
		if _, err := c.Read(make([]byte, 1)); err == io.EOF || errors.Is(err, syscall.ECONNRESET) {
			closed++
		}
	}
	if closed < flood-maxCallbackConns {
		t.Errorf("%d connections closed by the listener, want %d", closed, flood-maxCallbackConns)
	}
	if n := strings.Count(sink.noted(), "closes more at once"); n != 1 {
		t.Errorf("the flood was noted %d times, want once:\n%s", n, sink.noted())
	}
	for _, c := range conns {
		_ = c.Close()
	}
	waitFor("the flood's connections given back", func() bool { return capl.open.Load() == 0 })
	resp, err := http.Get(cb.redirectURI + "?state=good-state&code=c")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("the redirect after the flood: %s", resp.Status)
	}
	if q := <-cb.got; q.Get("code") != "c" {
		t.Errorf("got %v", q)
	}
	cb.close()
	if !strings.Contains(sink.noted(), "closed 20 connections at once") {
		t.Errorf("the count of connections closed is not noted:\n%s", sink.noted())
	}
}
