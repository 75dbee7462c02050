package session_test

import (
	"context"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

func TestEraCacheFile(t *testing.T) {
	dir := t.TempDir()
	a := session.NewEraCache(dir, session.ServerSpec{URL: "http://127.0.0.1:1/mcp"}.EraKey())
	b := session.NewEraCache(dir, session.ServerSpec{URL: "http://127.0.0.1:2/mcp"}.EraKey())
	if a.Path() == b.Path() {
		t.Fatalf("two server configurations share the cache file %s", a.Path())
	}
	if _, ok := a.Load(); ok {
		t.Fatal("an empty cache returned an era")
	}
	want := session.EraEntry{Era: session.EraLegacy, Revision: "2025-11-25", Learnt: time.Now().UTC().Truncate(time.Second)}
	if err := a.Store(want); err != nil {
		t.Fatal(err)
	}
	if got, ok := a.Load(); !ok || got != want {
		t.Fatalf("Load = %+v, %v; want %+v", got, ok, want)
	}
	if _, ok := b.Load(); ok {
		t.Fatal("the other configuration sees the era")
	}
	if info, err := os.Stat(a.Path()); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("cache file: %v, mode %v; want 0600", err, info.Mode())
	}
	data, _ := os.ReadFile(a.Path())
	if strings.Contains(string(data), "127.0.0.1") {
		t.Fatalf("the cache file holds the configuration itself: %s", data)
	}
	for name, bad := range map[string]string{
		"not JSON":          "era: legacy",
		"unknown era":       `{"era":"ancient","revision":"2025-11-25"}`,
		"unknown version":   `{"era":"legacy","revision":"1999-01-01"}`,
		"unknown transport": `{"era":"legacy","revision":"2025-11-25","transport":"carrier-pigeon"}`,
		"too large":         `{"era":"legacy","revision":"2025-11-25","pad":"` + strings.Repeat("x", 5000) + `"}`,
	} {
		if err := os.WriteFile(a.Path(), []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		if got, ok := a.Load(); ok {
			t.Errorf("%s: Load = %+v, want nothing", name, got)
		}
	}
	a.Forget()
	if _, err := os.Stat(a.Path()); !os.IsNotExist(err) {
		t.Fatalf("Forget left the file: %v", err)
	}
	var none *session.EraCache // no cache directory: caches nothing, fails nothing
	if _, ok := none.Load(); ok || none.Store(want) != nil {
		t.Fatal("a nil cache must cache nothing")
	}
}

// TestEraCacheSkipsProbe: the first auto session on a server of the earlier era probes and
// caches the era; the second says "era from cache" and sends no server/discover; --reprobe
// probes again.
func TestEraCacheSkipsProbe(t *testing.T) {
	ss := newSessionServer(t)
	cache := session.NewEraCache(t.TempDir(), "legacy server")
	_, rec := ss.connectConfig(t, session.Config{Protocol: "auto", EraCache: cache})
	if e, ok := cache.Load(); !ok || e.Era != session.EraLegacy || e.Revision != "2025-11-25" {
		t.Fatalf("after the first session the cache holds %+v, %v\n%s", e, ok, rec.Timeline())
	}
	first, _ := cache.Load()
	_, rec2 := ss.connectConfig(t, session.Config{Protocol: "auto", EraCache: cache})
	rec2.WaitFor(t, 5*time.Second, "the era-from-cache step", func(e *session.Event) bool {
		return e.Kind == session.EvState && strings.HasPrefix(e.Text, "era from cache: earlier era")
	})
	if again, _ := cache.Load(); !again.Learnt.Equal(first.Learnt) {
		t.Errorf("the era the cache already held was written again (learnt %s, then %s)", first.Learnt, again.Learnt)
	}
	if n := len(rec2.FindAll(sessiontest.Sent("server/discover"))); n != 0 {
		t.Fatalf("the second session sent server/discover %d times, want 0\n%s", n, rec2.Timeline())
	}
	_, rec3 := ss.connectConfig(t, session.Config{Protocol: "auto", EraCache: cache, Reprobe: true})
	if n := len(rec3.FindAll(sessiontest.Sent("server/discover"))); n != 1 {
		t.Fatalf("with Reprobe server/discover was sent %d times, want 1\n%s", n, rec3.Timeline())
	}
}

// TestEraCacheReprobesWhenWrong: a cached earlier era whose initialize is refused (the server
// is modern now) is forgotten, the server probed, and the new era cached.
func TestEraCacheReprobesWhenWrong(t *testing.T) {
	ss := newSessionServer(t)
	ss.modernOnly = true
	cache := session.NewEraCache(t.TempDir(), "server that changed era")
	if err := cache.Store(session.EraEntry{Era: session.EraLegacy, Revision: "2025-11-25", Learnt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	s, rec := ss.connectConfig(t, session.Config{Protocol: "auto", EraCache: cache})
	if !s.Info().Stateless {
		t.Fatalf("the session did not end up modern\n%s", rec.Timeline())
	}
	rec.WaitFor(t, 5*time.Second, "the re-probe step", func(e *session.Event) bool {
		return e.Kind == session.EvState && strings.HasPrefix(e.Text, "the cached era did not hold")
	})
	if e, ok := cache.Load(); !ok || e.Era != session.EraModern {
		t.Fatalf("the cache holds %+v, %v; want the modern era", e, ok)
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.inits != 1 || ss.discovers != 1 {
		t.Fatalf("the server saw %d initialize and %d server/discover, want 1 and 1", ss.inits, ss.discovers)
	}
}

// TestEraCacheRemembersSSE: an auto HTTP session on a URL that speaks HTTP+SSE finds out
// from the refused POST and caches it; the next session's first request is the GET of the
// event stream, with no POST before it; a cache that says HTTP+SSE of a Streamable HTTP URL
// costs one refused GET and is corrected.
func TestEraCacheRemembersSSE(t *testing.T) {
	mcpURL, sseURL := sessiontest.StartDemoHTTP(t)
	cache := session.NewEraCache(t.TempDir(), "sse server")
	connect := func(url string) (*session.Session, *sessiontest.Checked) {
		t.Helper()
		s, rec := connectChecked(t, transport.NewAutoHTTP(transport.HTTPOptions{URL: url}),
			session.Config{Protocol: "auto", EraCache: cache, Caps: session.DefaultCaps()})
		t.Cleanup(func() { _ = s.Close() })
		return s, rec
	}
	// The methods of the HTTP exchanges before the first GET, and that GET's status.
	beforeGET := func(rec *sessiontest.Checked) (methods []string, status int) {
		for _, e := range rec.Events() {
			if e.Kind != session.EvHTTP || e.HTTP == nil {
				continue
			}
			if e.HTTP.Method == http.MethodGet {
				return methods, e.HTTP.Status
			}
			methods = append(methods, e.HTTP.Method)
		}
		return methods, 0
	}

	s, rec := connect(sseURL)
	if s.Info().Transport != "sse" {
		t.Fatalf("the first session is on %q, want sse\n%s", s.Info().Transport, rec.Timeline())
	}
	if e, ok := cache.Load(); !ok || e.Transport != "sse" || e.Era != session.EraLegacy {
		t.Fatalf("the cache holds %+v, %v; want the earlier era over sse", e, ok)
	}
	if m, _ := beforeGET(rec); len(m) == 0 {
		t.Fatalf("the first session sent no POST before the GET\n%s", rec.Timeline())
	}

	s, rec = connect(sseURL)
	if m, st := beforeGET(rec); len(m) != 0 || st != http.StatusOK || s.Info().Transport != "sse" {
		t.Fatalf("the second session sent %v before its GET (status %d), ended on %q\n%s", m, st, s.Info().Transport, rec.Timeline())
	}
	if _, err := s.Call(testCtx(t), "tools/list", nil); err != nil {
		t.Fatalf("tools/list over the cached HTTP+SSE: %v", err)
	}

	// The URL now speaks Streamable HTTP (here: another URL under the same cache key).
	s, rec = connect(mcpURL)
	if s.Info().Transport != "http" {
		t.Fatalf("the session is on %q, want http\n%s", s.Info().Transport, rec.Timeline())
	}
	rec.WaitFor(t, 5*time.Second, "the note that HTTP+SSE did not answer", func(e *session.Event) bool {
		return strings.Contains(e.Text, "HTTP+SSE did not answer as before")
	})
	if e, ok := cache.Load(); !ok || e.Transport != "" {
		t.Fatalf("the cache holds %+v, %v; want no transport", e, ok)
	}
}

// TestEraCacheKeptWhenUnreachable: a server that is down (connection refused) leaves the
// cached era as it is, and the error says what happened, without a guess about the era.
func TestEraCacheKeptWhenUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/mcp"
	ln.Close() // nothing listens there now
	cache := session.NewEraCache(t.TempDir(), "server that is down")
	want := session.EraEntry{Era: session.EraLegacy, Revision: "2025-11-25", Learnt: time.Now().UTC().Truncate(time.Second), Transport: "sse"}
	if err := cache.Store(want); err != nil {
		t.Fatal(err)
	}
	for _, reprobe := range []bool{false, true} {
		s := session.New(session.Config{Protocol: "auto", EraCache: cache, Reprobe: reprobe, Caps: session.DefaultCaps(),
			Transport: transport.NewAutoHTTP(transport.HTTPOptions{URL: url})})
		rec := sessiontest.Record(t, s)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		err := s.Connect(ctx)
		cancel()
		_ = s.Close()
		if err == nil || !strings.Contains(err.Error(), "connection refused") {
			t.Fatalf("reprobe %v: connect = %v, want connection refused", reprobe, err)
		}
		for _, e := range rec.Events() {
			if strings.Contains(e.Text, "earlier era; falling back") || strings.Contains(e.Text, "cached era did not hold") {
				t.Errorf("reprobe %v: the timeline draws a conclusion from a refused connection: %s", reprobe, e.Text)
			}
		}
		if got, ok := cache.Load(); !ok || got != want {
			t.Fatalf("reprobe %v: the cache holds %+v, %v; want %+v kept", reprobe, got, ok, want)
		}
	}
}
