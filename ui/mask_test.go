package ui

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
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
	var sessions []*session.Session
	t.Cleanup(func() {
		for _, s := range sessions {
			_ = s.Close()
		}
	})
	opts := Options{Target: sp.Describe(), TransportName: "http", RecordOptions: recordings.Options{Secrets: []string{uiSecret}},
		NewSession: func() (*session.Session, error) {
			tr, err := sp.NewTransport()
			if err != nil {
				return nil, err
			}
			s := session.New(session.Config{Transport: tr})
			sessions = append(sessions, s)
			return s, nil
		}}
	m := NewModel(NewCommon(logf), opts)
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 200, Height: 50})
	d.run(m.Init())
	d.until(60*time.Second, "the handshake", func() bool { return m.state == session.StateReady })
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
		if strings.Contains(s, uiSecret) {
			t.Fatalf("the secret shows:\n%s", s)
		}
	}
}
