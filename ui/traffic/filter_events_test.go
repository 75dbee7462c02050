package traffic

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/transport"
)

// TestFilterEvents: method:events/* keeps every events/ method and no other, lane:webhook
// the POSTs the Events webhook receiver got.
func TestFilterEvents(t *testing.T) {
	w := newEvWire()
	h := NewHistory(0)
	poll := w.req(dirOut, 1, "events/poll", `{"name":"clock.tick"}`)
	stream := w.req(dirOut, 2, "events/stream", `{"name":"clock.tick"}`)
	list := w.req(dirOut, 3, "tools/list", `{}`)
	hook := &session.Event{Seq: 90, Kind: session.EvHTTP, HTTP: &transport.HTTPExchange{Purpose: "webhook", Method: "POST", URL: "http://127.0.0.1:1/hooks/x", Status: 200}}
	post := &session.Event{Seq: 91, Kind: session.EvHTTP, HTTP: &transport.HTTPExchange{Purpose: "post", Method: "POST", URL: "http://127.0.0.1:1/mcp", Status: 200}}
	names := []string{"poll", "stream", "list", "hook", "post"}
	var entries []*Entry
	for _, ev := range []*session.Event{poll, stream, list, hook, post} {
		e, _ := h.Add(1, ev)
		entries = append(entries, e)
	}
	for _, c := range []struct{ q, want string }{
		{"method:events/*", "poll stream"},
		{"method:events/p*", "poll"},
		{"lane:webhook", "hook"},
		{"-lane:webhook kind:http", "post"},
	} {
		q := ParseQuery(c.q)
		if q.Err != "" {
			t.Fatalf("%q: %s", c.q, q.Err)
		}
		var got []string
		for i, e := range entries {
			if q.Match(e) {
				got = append(got, names[i])
			}
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("%q matches %q, want %q", c.q, g, c.want)
		}
	}
}
