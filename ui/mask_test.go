package ui

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/secret"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/explorer"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// uiSecret is given as the URL's api_key, a -H header and the bearer token, and echoed
// back by the server.
const uiSecret = "SECRET-ui-5b7d2e90aa"

// TestModelMasksSecrets runs the model on the demo server over HTTP with a secret in the
// URL, a header and the bearer token, has the server echo it, and checks the screen of
// every row, the window title, the status bar, what copy hands on, a panic's value and the
// --debug log: none holds the secret.
func TestModelMasksSecrets(t *testing.T) {
	demo, _ := sessiontest.StartDemoHTTP(t)
	sp := session.ServerSpec{URL: demo + "?api_key=" + uiSecret, Bearer: uiSecret, Headers: http.Header{"X-Api-Key": {uiSecret}}, Transport: "http"}
	logPath := filepath.Join(t.TempDir(), "debug.log")
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	m, d := secretModel(t, sp, logf, 200, 50)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := m.Session().Call(ctx, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "token " + uiSecret}}); err != nil {
		t.Fatalf("echo: %v", err)
	}
	d.until(30*time.Second, "the echo's response", func() bool { return screenRow(plainScreen(m), "res", "tools/call") != "" })
	d.handle(StatusMsg{Text: "connect to " + sp.URL + " failed", Error: true})

	var shown []string
	var echoed, maskedURL bool
	for _, e := range m.hist.Entries() {
		m.detail.SetEntry(e)
		scr := plainScreen(m)
		shown = append(shown, scr)
		batch, ok := m.detail.action(actCopy)().(tea.BatchMsg)
		if !ok {
			t.Fatal("copy returned no batch")
		}
		clip := reflect.ValueOf(batch[0]()).String()
		shown = append(shown, clip)
		echoed = echoed || strings.Contains(clip, "token ****")
		maskedURL = maskedURL || strings.Contains(scr, "api_key=****")
	}
	if !echoed || !maskedURL {
		t.Fatalf("the test saw no echo (%v) or no URL (%v)", echoed, maskedURL)
	}
	shown = append(shown, m.View().WindowTitle, strings.Split(plainScreen(m), "\n")[0])
	func() {
		defer func() { shown = append(shown, recover().(string)) }()
		defer m.maskPanic()
		panic("crash near " + uiSecret)
	}()
	logf.Sync()
	logData, _ := os.ReadFile(logPath)
	shown = append(shown, string(logData))
	for _, s := range shown {
		if strings.Contains(s, uiSecret[:12]) { // not even a prefix: the rows cut long arguments
			t.Fatalf("the secret shows:\n%s", s)
		}
	}
}

// TestGuardMasksCommandPanics: a command that panics, on its own or inside a batch or a
// sequence, panics with its value masked, and the messages of the others pass unchanged.
func TestGuardMasksCommandPanics(t *testing.T) {
	m := NewModel(NewCommon(nil), Options{})
	m.c.SetMasks(recordings.Options{Secrets: []string{uiSecret}})
	crash := func() tea.Msg { panic("crash near " + uiSecret) }
	ok := func() tea.Msg { return StatusMsg{Text: "fine"} }
	panicOf := func(cmd tea.Cmd) (v any) {
		defer func() { v = recover() }()
		cmd()
		return nil
	}
	if v := panicOf(m.guard(crash)); v != "crash near ****" {
		t.Errorf("a command's panic: %v", v)
	}
	for name, cmd := range map[string]tea.Cmd{"batch": tea.Batch(ok, crash), "sequence": tea.Sequence(ok, crash)} {
		msg := m.guard(cmd)()
		v := reflect.ValueOf(msg)
		if v.Kind() != reflect.Slice || v.Len() != 2 {
			t.Fatalf("%s: %T", name, msg)
		}
		if got := v.Index(0).Interface().(tea.Cmd)(); got != (StatusMsg{Text: "fine"}) {
			t.Errorf("%s: the first command's message is %v", name, got)
		}
		if p := panicOf(v.Index(1).Interface().(tea.Cmd)); p != "crash near ****" {
			t.Errorf("%s: the second command's panic: %v", name, p)
		}
	}
	if m.guard(nil) != nil {
		t.Error("no command guarded is a command")
	}
}

// TestDetailMasksWrappedSecrets: a secret the server echoes lands anywhere in a long line;
// the detail pane masks it before wrapping the line, so no piece of it shows where the
// wrap would cut it in two, in the pretty and the wire view.
func TestDetailMasksWrappedSecrets(t *testing.T) {
	demo, _ := sessiontest.StartDemoHTTP(t)
	sp := session.ServerSpec{URL: demo, Bearer: uiSecret, Transport: "http"}
	m, d := secretModel(t, sp, nil, 130, 40)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const calls = 24
	for k := range calls {
		text := strings.Repeat("x", 3*k) + uiSecret
		if _, err := m.Session().Call(ctx, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": text}}); err != nil {
			t.Fatal(err)
		}
	}
	echoes := func() (out []*traffic.Entry) {
		for _, e := range m.hist.Entries() {
			if e.Ev.Frame != nil && e.Ev.Dir == protocol.ServerToClient && strings.Contains(string(e.Ev.Frame.Raw), "xxx") {
				out = append(out, e)
			}
		}
		return out
	}
	d.until(30*time.Second, "the echoes in the history", func() bool { return len(echoes()) == calls-1 })
	pieces := func(scr string) string {
		for i := 0; i+8 <= len(uiSecret); i++ {
			if strings.Contains(scr, uiSecret[i:i+8]) {
				return uiSecret[i : i+8]
			}
		}
		return ""
	}
	masked := 0
	for _, e := range echoes() {
		if !m.timeline.Select(e) {
			t.Fatal("an echo is not in the timeline")
		}
		d.keys("enter")
		for _, view := range []string{"pretty", "wire"} {
			scr := plainScreen(m)
			if p := pieces(scr); p != "" {
				t.Fatalf("the %s view shows %q of the secret:\n%s", view, p, scr)
			}
			masked += strings.Count(scr, "****")
			d.keys("w")
		}
		d.keys("w", "esc")
	}
	if masked == 0 {
		t.Fatal("no mask drawn: the test saw no echoed secret")
	}
}

// specSessions is a NewSession that connects to sp; every session it made is closed when
// the test ends.
func specSessions(t *testing.T, sp session.ServerSpec) func() (*session.Session, error) {
	return closingSessions(t, sp.NewTransport, nil)
}

// secretModel runs the model at w×h on sp, with uiSecret as the secret the command line
// gave and the --debug log written to logw (nil: none), until the handshake is done.
func secretModel(t *testing.T, sp session.ServerSpec, logw io.Writer, w, h int) (*Model, *driver) {
	t.Helper()
	m := NewModel(NewCommon(logw), Options{Target: sp.Describe(), TransportName: "http",
		RecordOptions: recordings.Options{Secrets: []string{uiSecret}}, NewSession: specSessions(t, sp)})
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: w, Height: h})
	d.run(m.Init())
	d.until(60*time.Second, "the handshake", func() bool { return m.state == session.StateReady })
	return m, d
}

// TestResultMasksWrappedSecrets: a result (explorer or detail) masks its secrets before it
// is laid out, so a secret the layout wraps over two lines shows no piece of itself; the
// screen's last mask pass sees one line at a time and would miss it.
func TestResultMasksWrappedSecrets(t *testing.T) {
	c := NewCommon(nil)
	mask := secret.New([]string{uiSecret}, false)
	const w = 30
	for k := range w {
		text := strings.Repeat("x", k) + uiSecret + " tail"
		raw, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}},
			"structuredContent": map[string]any{"echo": text}})
		v := explorer.RenderResult(c.Styles, c.Keys, methodToolsCall, "echo", raw, explorer.ResultEnv{Mask: mask}, w)
		scr := ansi.Strip(strings.Join(v.Lines(), "\n"))
		for i := 0; i+6 <= len(uiSecret); i++ {
			if strings.Contains(scr, uiSecret[i:i+6]) {
				t.Fatalf("offset %d: the result shows %q of the secret:\n%s", k, uiSecret[i:i+6], scr)
			}
		}
		if !strings.Contains(scr, "****") {
			t.Fatalf("offset %d: no mask drawn:\n%s", k, scr)
		}
	}
}
