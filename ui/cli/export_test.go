package cli_test

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// A W3C traceparent a host would put in params._meta, and its parts.
const (
	testTraceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	testTraceID     = "4bf92f3577b34da6a3ce929d0e0e4736"
	testParentID    = "00f067aa0ba902b7"
	// testSecret is a secret-shaped text the recordings made with --no-redact hold (a
	// tool's argument and answer) and no export may.
	testSecret = "token=abcdef123456"
)

// recordDemo runs one mcpscope command with --record against the demo server (stdio by
// default; args may give --url) and returns the recording's path.
func recordDemo(t *testing.T, name string, args ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+".jsonl")
	stdout, stderr, _ := run(t, append([]string{"--record", path}, args...)...)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("mcpscope %s made no recording: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout, stderr)
	}
	return path
}

// startDemoHTTP runs `mcpscope demo --http` and returns its Streamable HTTP URL.
func startDemoHTTP(t *testing.T) string {
	t.Helper()
	p := start(t, nil, sessiontest.BuildMCPScope(t), "demo", "--http", "127.0.0.1:0")
	p.waitStderr("listening on")
	m := regexp.MustCompile(`listening on (http://\S+/mcp)`).FindStringSubmatch(p.stderrText())
	if m == nil {
		t.Fatalf("demo --http did not say where it listens:\n%s", p.stderrText())
	}
	return m[1]
}

// exportOut runs mcpscope export and returns what it wrote to -o.
func exportOut(t *testing.T, format, rec string, extra ...string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out."+format)
	runOK(t, append([]string{"export", "--format", format, rec, "-o", out}, extra...)...)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// requestFrames counts the requests a recording holds (both directions).
func requestFrames(t *testing.T, rec string) int {
	t.Helper()
	r, err := recordings.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	es, _ := r.Events()
	n := 0
	for _, e := range es {
		if e.Event.Kind == session.EvFrame && e.Event.Frame.Kind.String() == "request" {
			n++
		}
	}
	return n
}

// TestExportHAR exports recordings of the demo over stdio and over demo --http as HAR,
// checks every member HAR 1.2 requires, and what the entries say: the HTTP exchanges with
// their masked headers and the frames as bodies; the stdio frames under mcp+stdio URLs.
func TestExportHAR(t *testing.T) {
	url := startDemoHTTP(t)
	httpRec := recordDemo(t, "http", "--protocol", "2025-11-25", "--no-redact", "-H", "X-Api-Key: key-value-123456", "call", "echo", "text=hello-har "+testSecret, "--url", url)
	if b, _ := os.ReadFile(httpRec); !bytes.Contains(b, []byte(testSecret)) {
		t.Fatalf("the --no-redact recording does not hold the secret; the masking check would prove nothing")
	}
	h := checkHAR(t, exportOut(t, "har", httpRec))
	var post, sse bool
	for _, e := range h.Log.Entries {
		if strings.Contains(e.Request.PostData.Text, `"method":"tools/call"`) {
			post = true
			if e.Request.Method != "POST" || e.Request.URL != url || !strings.Contains(e.Response.Content.Text, "hello-har") || e.Response.Status != 200 {
				t.Errorf("tools/call entry: %s %s → %d %q", e.Request.Method, e.Request.URL, e.Response.Status, e.Response.Content.Text)
			}
			if e.Timings.Wait <= 0 {
				t.Errorf("tools/call entry: wait %v", e.Timings.Wait)
			}
		}
		if e.Response.Content.MimeType == "text/event-stream" && strings.Contains(e.Response.Content.Text, "data: {") {
			sse = true
		}
		var key bool
		for _, hd := range e.Request.Headers {
			if strings.EqualFold(hd.Name, "X-Api-Key") {
				key = true
				if !strings.Contains(hd.Value, "****") {
					t.Errorf("X-Api-Key not masked: %q", hd.Value)
				}
			}
		}
		if !key && e.Request.Method == "POST" {
			t.Errorf("%s %s: the X-Api-Key header is missing", e.Request.Method, e.Request.URL)
		}
	}
	if !post {
		t.Errorf("no entry carries the tools/call request")
	}
	if !sse {
		t.Errorf("no entry has the event stream a POST was answered with")
	}

	stdioRec := recordDemo(t, "stdio", "--protocol", "2025-11-25", "call", "echo", "text=hello-stdio")
	h = checkHAR(t, exportOut(t, "har", stdioRec))
	var call, note bool
	for _, e := range h.Log.Entries {
		switch {
		case strings.HasPrefix(e.Request.URL, "mcp+stdio://server/tools/call?id="):
			call = true
			if e.Request.Method != "MCP" || e.Response.Status != 200 || !strings.Contains(e.Response.Content.Text, "hello-stdio") {
				t.Errorf("tools/call entry: %s %s → %d %q", e.Request.Method, e.Request.URL, e.Response.Status, e.Response.Content.Text)
			}
		case e.Request.URL == "mcp+stdio://server/notifications/initialized":
			note = e.Response.Status == 204
		}
	}
	if !call || !note {
		t.Errorf("stdio HAR: tools/call entry %v, notifications/initialized entry with 204 %v", call, note)
	}
	if n := requestFrames(t, stdioRec); len(h.Log.Entries) < n {
		t.Errorf("%d entries for %d requests", len(h.Log.Entries), n)
	}
}

// harDoc is the part of a HAR document the test reads after checking its structure.
type harDoc struct {
	Log struct {
		Entries []struct {
			Request struct {
				Method, URL string
				Headers     []struct{ Name, Value string }
				PostData    struct{ Text string }
			}
			Response struct {
				Status  int
				Content struct{ MimeType, Text string }
			}
			Timings struct{ Wait float64 }
		}
	}
}

// checkHAR checks b against the HAR 1.2 specification's required members and types
// (http://www.softwareishard.com/blog/har-12-spec/), and decodes it.
func checkHAR(t *testing.T, b []byte) harDoc {
	t.Helper()
	if bytes.Contains(b, []byte(testSecret)) {
		t.Errorf("the HAR holds the secret %q", testSecret)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("HAR is not JSON: %v", err)
	}
	c := harChecker{t: t}
	log := c.obj(v, "log", "")
	c.str(log, "version", "log")
	if log["version"] != "1.2" {
		t.Errorf("log.version %v", log["version"])
	}
	cr := c.obj(log, "creator", "log")
	c.str(cr, "name", "log.creator")
	c.str(cr, "version", "log.creator")
	pages := map[string]bool{}
	for i, p := range c.arr(log, "pages", "log") {
		at := "log.pages[" + itoa(i) + "]"
		pg, _ := p.(map[string]any)
		c.date(pg, "startedDateTime", at)
		pages[c.str(pg, "id", at)] = true
		c.str(pg, "title", at)
		c.obj(pg, "pageTimings", at)
	}
	entries := c.arr(log, "entries", "log")
	if len(entries) == 0 {
		t.Fatalf("HAR has no entries")
	}
	for i, en := range entries {
		at := "log.entries[" + itoa(i) + "]"
		e, _ := en.(map[string]any)
		if ref, ok := e["pageref"].(string); ok && !pages[ref] {
			t.Errorf("%s.pageref %q names no page", at, ref)
		}
		c.date(e, "startedDateTime", at)
		total := c.num(e, "time", at)
		req := c.obj(e, "request", at)
		for _, k := range []string{"method", "url", "httpVersion"} {
			c.str(req, k, at+".request")
		}
		for _, k := range []string{"cookies", "headers", "queryString"} {
			c.nameValues(c.arr(req, k, at+".request"), at+".request."+k)
		}
		c.num(req, "headersSize", at+".request")
		c.num(req, "bodySize", at+".request")
		if pd, ok := req["postData"]; ok {
			p, _ := pd.(map[string]any)
			c.str(p, "mimeType", at+".request.postData")
			_, text := p["text"].(string)
			_, params := p["params"].([]any)
			if text == params {
				t.Errorf("%s.request.postData: want text or params", at)
			}
		}
		resp := c.obj(e, "response", at)
		c.num(resp, "status", at+".response")
		for _, k := range []string{"statusText", "httpVersion", "redirectURL"} {
			c.str(resp, k, at+".response")
		}
		for _, k := range []string{"cookies", "headers"} {
			c.nameValues(c.arr(resp, k, at+".response"), at+".response."+k)
		}
		c.num(resp, "headersSize", at+".response")
		c.num(resp, "bodySize", at+".response")
		content := c.obj(resp, "content", at+".response")
		c.num(content, "size", at+".response.content")
		c.str(content, "mimeType", at+".response.content")
		c.obj(e, "cache", at)
		tm := c.obj(e, "timings", at)
		sum := 0.0
		for _, k := range []string{"send", "wait", "receive"} {
			if n := c.num(tm, k, at+".timings"); n < 0 {
				t.Errorf("%s.timings.%s is %v: send, wait and receive are never -1", at, k, n)
			} else {
				sum += n
			}
		}
		for _, k := range []string{"blocked", "dns", "connect", "ssl"} {
			if n, ok := tm[k].(float64); ok && n > 0 {
				sum += n
			}
		}
		if math.Abs(sum-total) > 0.01 {
			t.Errorf("%s.time %v is not the sum of its timings %v", at, total, sum)
		}
	}
	var h harDoc
	if err := json.Unmarshal(b, &h); err != nil {
		t.Fatal(err)
	}
	return h
}

type harChecker struct{ t *testing.T }

func (c harChecker) obj(v map[string]any, k, at string) map[string]any {
	c.t.Helper()
	o, ok := v[k].(map[string]any)
	if !ok {
		c.t.Errorf("%s.%s: want an object, have %T", at, k, v[k])
	}
	return o
}

func (c harChecker) arr(v map[string]any, k, at string) []any {
	c.t.Helper()
	a, ok := v[k].([]any)
	if !ok {
		c.t.Errorf("%s.%s: want an array, have %T", at, k, v[k])
	}
	return a
}

func (c harChecker) str(v map[string]any, k, at string) string {
	c.t.Helper()
	s, ok := v[k].(string)
	if !ok {
		c.t.Errorf("%s.%s: want a string, have %T", at, k, v[k])
	}
	return s
}

func (c harChecker) num(v map[string]any, k, at string) float64 {
	c.t.Helper()
	n, ok := v[k].(float64)
	if !ok {
		c.t.Errorf("%s.%s: want a number, have %T", at, k, v[k])
	}
	return n
}

func (c harChecker) date(v map[string]any, k, at string) {
	c.t.Helper()
	if _, err := time.Parse(time.RFC3339Nano, c.str(v, k, at)); err != nil {
		c.t.Errorf("%s.%s: not ISO 8601: %v", at, k, err)
	}
}

func (c harChecker) nameValues(list []any, at string) {
	c.t.Helper()
	for i, x := range list {
		nv, _ := x.(map[string]any)
		c.str(nv, "name", at+"["+itoa(i)+"]")
		c.str(nv, "value", at+"["+itoa(i)+"]")
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestExportNDJSON exports a recording made with --no-redact as NDJSON: one event a
// line, every event of the recording, the secret masked.
func TestExportNDJSON(t *testing.T) {
	url := startDemoHTTP(t)
	rec := recordDemo(t, "http", "--no-redact", "-H", "X-Api-Key: key-value-123456", "call", "echo", "text=nd "+testSecret, "--url", url)
	out := exportOut(t, "ndjson", rec)
	if bytes.Contains(out, []byte(testSecret)) {
		t.Errorf("the NDJSON export holds the secret")
	}
	r, err := recordings.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	lines := bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n"))
	if len(lines) != r.Len() {
		t.Fatalf("%d lines for %d events", len(lines), r.Len())
	}
	for i, l := range lines {
		var e session.EventJSON
		if err := json.Unmarshal(l, &e); err != nil || e.Seq == 0 || e.Kind == "" {
			t.Errorf("line %d: %v %.200s", i+1, err, l)
		}
	}
	if !bytes.Contains(out, []byte(`"X-Api-Key":["`)) || bytes.Contains(out, []byte("key-value-123456")) {
		t.Errorf("the header is not in the export, or not masked")
	}
}
