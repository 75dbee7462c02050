package traffic

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session"
)

// TestFilterLane: lane:app keeps an app's postMessage frames, lane:server the wire,
// lane:from-app the server calls made for the app.
func TestFilterLane(t *testing.T) {
	w := newEvWire()
	h := NewHistory(0)
	appReq := w.req(dirIn, 1, "tools/call", `{"name":"view_dice_reroll"}`)
	appReq.Lane = session.LaneApp
	fwd := w.req(dirOut, 9, "tools/call", `{"name":"view_dice_reroll"}`)
	fwd.Corr.AppSeq = appReq.Seq
	plain := w.req(dirOut, 10, "tools/list", `{}`)
	evs := []*session.Event{appReq, fwd, plain, w.stderr("x")}
	names := []string{"app", "fwd", "plain", "stderr"}
	var entries []*Entry
	for _, ev := range evs {
		e, _ := h.Add(1, ev)
		entries = append(entries, e)
	}
	for _, c := range []struct{ q, want string }{
		{"lane:app", "app"},
		{"lane:server", "fwd plain"},
		{"lane:from-app", "fwd"},
		{"-lane:app", "fwd plain stderr"},
		{"lane:app method:tools/call", "app"},
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
	if q := ParseQuery("lane:sideways"); q.Err == "" || !strings.Contains(q.Err, "from-app") {
		t.Errorf("a bad lane must say what the field takes: %q", q.Err)
	}
}
