package session_test

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sessiontest.Cleanup()
	os.Exit(code)
}

// connectChecked starts a session over tr, records it and schema-checks everything it sends
// when the test ends.
func connectChecked(t *testing.T, tr transport.Transport, cfg session.Config) (*session.Session, *sessiontest.Checked) {
	t.Helper()
	cfg.Transport = tr
	s := session.New(cfg)
	rec := sessiontest.CheckSession(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatalf("connect: %v\ntimeline:\n%s", err, rec.Timeline())
	}
	return s, rec
}

// testCtx is a context that ends with the test (or after a minute).
func testCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// callTool calls a tool and returns the response and the text of its content blocks.
func callTool(t *testing.T, s *session.Session, name string, args any, opts ...session.CallOption) (*session.Response, string) {
	t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	resp, err := s.Call(testCtx(t), "tools/call", map[string]any{"name": name, "arguments": args}, opts...)
	if err != nil {
		t.Fatalf("tools/call %s: %v", name, err)
	}
	return resp, contentText(t, resp.Result)
}

// contentText joins the text of a result's content blocks (tools/call) or messages
// (prompts/get) or contents (resources/read).
func contentText(t *testing.T, result json.RawMessage) string {
	t.Helper()
	var r struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		Messages []struct {
			Content struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"messages"`
		Contents []struct {
			Text string `json:"text"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		t.Fatalf("result is not an object: %v: %s", err, result)
	}
	var parts []string
	for _, c := range r.Content {
		parts = append(parts, c.Text)
	}
	for _, m := range r.Messages {
		parts = append(parts, m.Content.Text)
	}
	for _, c := range r.Contents {
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, "\n")
}

// isError reports a tools/call result's isError.
func isError(result json.RawMessage) bool {
	var r struct {
		IsError bool `json:"isError"`
	}
	_ = json.Unmarshal(result, &r)
	return r.IsError
}

// field returns one string member of each item.
func field(items []json.RawMessage, name string) []string {
	var out []string
	for _, it := range items {
		var m map[string]json.RawMessage
		var s string
		if json.Unmarshal(it, &m) == nil && json.Unmarshal(m[name], &s) == nil {
			out = append(out, s)
		}
	}
	return out
}

// mustContain fails unless every want is in have.
func mustContain(t *testing.T, what string, have []string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(have, w) {
			t.Errorf("%s: %q missing from %q", what, w, have)
		}
	}
}

// checkPagination verifies, from the wire, that the last fetch of a list went page by page:
// each request after the first carried the previous result's nextCursor, the last result had
// none, there were at least minPages pages, and List returned the items of every page in
// order.
func checkPagination(t *testing.T, rec *sessiontest.Checked, method, key string, items []json.RawMessage, minPages int) {
	t.Helper()
	type page struct {
		cursor, next string
		items        []json.RawMessage
		answered     bool
	}
	var pages []*page
	complete := func() bool {
		pages = nil
		bySeq := map[uint64]*page{}
		for _, e := range rec.Events() {
			if e.Kind != session.EvFrame {
				continue
			}
			if e.Dir == protocol.ClientToServer && e.Frame.Method == method {
				var p struct {
					Cursor string `json:"cursor"`
				}
				_ = json.Unmarshal(e.Frame.Params, &p)
				if p.Cursor == "" {
					pages = nil // a new fetch from the start
				}
				pg := &page{cursor: p.Cursor}
				pages = append(pages, pg)
				bySeq[e.Seq] = pg
				continue
			}
			pg := bySeq[e.Corr.RequestSeq]
			if e.Dir != protocol.ServerToClient || pg == nil || e.Frame.Kind != protocol.KindResult {
				continue
			}
			var r map[string]json.RawMessage
			_ = json.Unmarshal(e.Frame.Result, &r)
			_ = json.Unmarshal(r[key], &pg.items)
			_ = json.Unmarshal(r["nextCursor"], &pg.next)
			pg.answered = true
		}
		return len(pages) > 0 && pages[len(pages)-1].answered && pages[len(pages)-1].next == ""
	}
	// List returns once the last page is in; the recorder may lag behind by a few events.
	rec.Poll(10*time.Second, func(*session.Event) bool { return complete() })
	complete()
	if len(pages) < minPages {
		t.Fatalf("%s: %d page(s), want at least %d", method, len(pages), minPages)
	}
	var all []json.RawMessage
	for i, pg := range pages {
		if !pg.answered {
			t.Fatalf("%s: page %d has no result", method, i+1)
		}
		if i > 0 && (pg.cursor == "" || pg.cursor != pages[i-1].next) {
			t.Errorf("%s: page %d asked with cursor %q, the previous page gave %q", method, i+1, pg.cursor, pages[i-1].next)
		}
		all = append(all, pg.items...)
	}
	if last := pages[len(pages)-1]; last.next != "" {
		t.Errorf("%s: the last page still had nextCursor %q", method, last.next)
	}
	if len(all) != len(items) {
		t.Fatalf("%s: the pages held %d items, List returned %d", method, len(all), len(items))
	}
	for i := range items {
		if string(items[i]) != string(all[i]) {
			t.Errorf("%s: item %d differs from the wire: %s vs %s", method, i, items[i], all[i])
		}
	}
}
