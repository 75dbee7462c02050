package ui

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// urlRequiredPage is the page the newest -32042 answer in r's history names.
func urlRequiredPage(t *testing.T, r *rig) (id, url string) {
	t.Helper()
	e := r.frame(`"code":-32042`)
	if e == nil {
		t.Fatal("no -32042 answer in the history")
	}
	var data struct {
		Elicitations []struct {
			URL           string `json:"url"`
			ElicitationID string `json:"elicitationId"`
		} `json:"elicitations"`
	}
	if err := json.Unmarshal(e.Ev.Frame.Error.Data, &data); err != nil || len(data.Elicitations) != 1 {
		t.Fatalf("error.data %s: %v", e.Ev.Frame.Error.Data, err)
	}
	return data.Elicitations[0].ElicitationID, data.Elicitations[0].URL
}

// visit opens url as the user's browser would.
func visit(t *testing.T, url string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
}

// countFrames counts the history's frames whose bytes hold part.
func countFrames(r *rig, part string) int {
	n := 0
	for _, e := range r.m.hist.Entries() {
		if e.Ev != nil && e.Ev.Frame != nil && bytes.Contains(e.Ev.Frame.Raw, []byte(part)) {
			n++
		}
	}
	return n
}

// urlRequiredCalls counts the tools/call requests of url_required in the history.
func urlRequiredCalls(r *rig) int {
	n := 0
	for _, e := range r.m.hist.Entries() {
		if e.Ev != nil && e.Ev.Frame != nil && e.Ev.Frame.Method == "tools/call" && bytes.Contains(e.Ev.Frame.Params, []byte(`"url_required"`)) {
			n++
		}
	}
	return n
}

// marker is the history's marker row holding text, or "".
func marker(r *rig, text string) string {
	for _, e := range r.m.hist.Entries() {
		if e.Marker != "" && strings.Contains(e.Marker, text) {
			return e.Marker
		}
	}
	return ""
}

// TestURLRequiredRetriesOnComplete: error -32042 opens the URL dialog (domain, https warning,
// the elicitation), and notifications/elicitation/complete for its id sends the original
// request again, noted in the timeline; the retry succeeds.
func TestURLRequiredRetriesOnComplete(t *testing.T) {
	r := newRig(t, "2025-11-25", nil)
	r.callTool("url_required", `{}`)
	r.until("the -32042 dialog", func() bool { return dialogOf[*urlRequiredDialog](r.m) != nil })
	id, url := urlRequiredPage(t, r)
	scr := r.screen()
	for _, want := range []string{"The server needs you to open a page first", "error -32042 (URL elicitation required) to tools/call url_required #",
		"Domain  127.0.0.1", "⚠ not https", "Elicitation " + id + "  waiting", "o open URL in browser · y copy URL · r retry now · esc stop waiting"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, scr)
		}
	}
	visit(t, url)
	r.until("the retry's answer", func() bool { return r.frame("Connected: the page was visited") != nil })
	if got := marker(r, " sent again: elicitation "+id+" complete"); got == "" {
		t.Errorf("no timeline row notes the retry")
	}
	if dialogOf[*urlRequiredDialog](r.m) != nil {
		t.Errorf("the dialog stayed after the retry:\n%s", r.screen())
	}
	if n := urlRequiredCalls(r); n != 2 {
		t.Errorf("url_required sent %d times, want 2 (the call and its retry)", n)
	}
}

// TestURLRequiredKeys: r retries at once (the server refuses again and the dialog shows
// the new page), esc stops waiting, and a completion nobody waits for sends nothing.
func TestURLRequiredKeys(t *testing.T) {
	r := newRig(t, "2025-11-25", nil)
	r.callTool("url_required", `{}`)
	r.until("the -32042 dialog", func() bool { return dialogOf[*urlRequiredDialog](r.m) != nil })
	first, _ := urlRequiredPage(t, r)
	r.keys("r")
	r.until("the retry's -32042", func() bool { return countFrames(r, `"code":-32042`) == 2 })
	second, url := urlRequiredPage(t, r)
	r.until("the new page in the dialog", func() bool { return strings.Contains(r.screen(), "Elicitation "+second) })
	if d := dialogOf[*urlRequiredDialog](r.m); d == nil || len(d.waits) != 1 || second == first {
		t.Fatalf("after r: the dialog %+v, elicitations %s then %s", d, first, second)
	}
	if marker(r, " sent again: retry asked") == "" {
		t.Errorf("no timeline row notes the retry asked for")
	}
	r.keys("esc")
	if dialogOf[*urlRequiredDialog](r.m) != nil {
		t.Fatalf("esc left the dialog open")
	}
	visit(t, url)
	r.until("the completion", func() bool { return r.frame("notifications/elicitation/complete", second) != nil })
	r.callTool("echo", `{"text":"after"}`) // a later frame: the completion's batch has been taken in
	r.until("the echo", func() bool { return r.frame(`"text":"after"`, "result") != nil })
	if n := urlRequiredCalls(r); n != 2 {
		t.Errorf("url_required sent %d times after esc, want 2", n)
	}
}

// TestURLRequiredDialogClock: the dialog's "waiting" time goes on while nothing is in flight
// (the clock keeps ticking while the dialog is open).
func TestURLRequiredDialogClock(t *testing.T) {
	r := newRig(t, "2025-11-25", nil)
	r.callTool("url_required", `{}`)
	r.until("the -32042 dialog", func() bool { return dialogOf[*urlRequiredDialog](r.m) != nil })
	r.until("nothing in flight", func() bool { return r.m.hist.InFlight() == 0 })
	_, cmd := r.m.Update(TickMsg(time.Now().Add(3 * time.Second)))
	if cmd == nil {
		t.Errorf("the clock stopped while the dialog waits")
	}
	if scr := r.screen(); !strings.Contains(scr, "waiting 3s") {
		t.Errorf("the dialog does not count the wait:\n%s", scr)
	}
}
