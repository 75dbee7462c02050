package recordings_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session/fault"
)

// jsonServer answers every request posted to it with a JSON body (as a Streamable HTTP
// server may): its result names the method.
func jsonServer(t *testing.T, seen *atomic.Int32) *url.URL {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		b, _ := io.ReadAll(r.Body)
		if strings.Contains(string(b), "notifications/") {
			seen.Add(1)
		}
		if json.Unmarshal(b, &m) != nil || m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"method":%q,"pad":%q}}`, m.ID, m.Method, strings.Repeat("x", 200))
	}))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL + "/mcp")
	return u
}

// TestTapHTTPFaultsJSON applies rules to answers that come as JSON bodies: delayed,
// replaced by an error, truncated (its length told truly), throttled, dropped (the host
// waits until it gives up), cut (the host's connection closed); one no rule matches is
// the server's bytes. A notification the host posts that a drop rule matches is accepted
// (202) and never reaches the server.
func TestTapHTTPFaultsJSON(t *testing.T) {
	rules, err := fault.ParseRules([]string{"delay=300ms method:=a dir:in", "error=-32001:nope method:=b dir:in",
		"corrupt=truncate method:=c dir:in", "throttle=1000/s method:=d dir:in", "drop method:=e dir:in",
		"disconnect method:=f dir:in", "drop method:=notifications/dropped"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var notes atomic.Int32
	up := jsonServer(t, &notes)
	tap, err := recordings.NewTap(recordings.TapConfig{Name: "json", NoLive: true, Faults: fault.NewEngine(rules, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer tap.Close()
	srv := httptest.NewServer(tap.HTTPProxy(up))
	defer srv.Close()
	call := func(method string, timeout time.Duration) (string, time.Duration, error) {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		body := `{"jsonrpc":"2.0","id":7,"method":"` + method + `"}`
		if strings.HasPrefix(method, "notifications/") {
			body = `{"jsonrpc":"2.0","method":"` + method + `"}`
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		start := time.Now()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return "", time.Since(start), err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return string(b), time.Since(start), err
	}
	whole := `{"jsonrpc":"2.0","id":7,"result":{"method":"a","pad":"` + strings.Repeat("x", 200) + `"}}`
	if got, took, err := call("a", 10*time.Second); err != nil || got != whole || took < 300*time.Millisecond {
		t.Errorf("delay: %q after %s, %v", got, took, err)
	}
	if got, _, err := call("b", 10*time.Second); err != nil || got != `{"jsonrpc":"2.0","id":7,"error":{"code":-32001,"message":"nope"}}` {
		t.Errorf("error: %q, %v", got, err)
	}
	full := strings.Replace(whole, `"method":"a"`, `"method":"c"`, 1)
	if got, _, err := call("c", 10*time.Second); err != nil || got != full[:len(full)/2] {
		t.Errorf("truncate: %q, %v", got, err)
	}
	if got, took, err := call("d", 10*time.Second); err != nil || !strings.Contains(got, `"method":"d"`) || took < 200*time.Millisecond {
		t.Errorf("throttle: %d bytes after %s, %v", len(got), took, err)
	}
	if got, _, err := call("e", 500*time.Millisecond); err == nil {
		t.Errorf("drop: the host got %q", got)
	}
	if got, _, err := call("f", 10*time.Second); err == nil {
		t.Errorf("disconnect: the host got %q", got)
	}
	if got, _, err := call("notifications/dropped", 10*time.Second); err != nil || got != "" || notes.Load() != 0 {
		t.Errorf("a dropped notification: %q, %v; the server saw %d", got, err, notes.Load())
	}
	if _, _, err := call("notifications/kept", 10*time.Second); err != nil || notes.Load() != 1 {
		t.Errorf("a notification no rule matches: %v; the server saw %d", err, notes.Load())
	}
	if got, _, err := call("g", 10*time.Second); err != nil || got != strings.Replace(whole, `"method":"a"`, `"method":"g"`, 1) {
		t.Errorf("no rule: %q, %v", got, err)
	}
}
