package demo

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestURLRequired: url_required answers error -32042 with a URL-mode elicitation in
// error.data; visiting the page sends notifications/elicitation/complete with its id, and
// the same call then succeeds.
func TestURLRequired(t *testing.T) {
	s := startStdio(t)
	initialize(t, s.lineClient, "2025-11-25", fullCaps)

	id := s.call("tools/call", `{"name":"url_required","arguments":{}}`)
	m := s.response(id)
	if m.Error == nil || m.Error.Code != -32042 {
		t.Fatalf("want error -32042, got %s", m.raw)
	}
	var data struct {
		Elicitations []struct{ Mode, Message, URL, ElicitationID string }
	}
	if err := json.Unmarshal(m.Error.Data, &data); err != nil || len(data.Elicitations) != 1 {
		t.Fatalf("error.data: %s (%v)", m.Error.Data, err)
	}
	el := data.Elicitations[0]
	if el.Mode != "url" || el.ElicitationID == "" || !strings.HasPrefix(el.URL, "http://127.0.0.1:") {
		t.Fatalf("elicitation: %+v", el)
	}
	// Before the visit the call still needs the page.
	if again := s.response(s.call("tools/call", `{"name":"url_required","arguments":{}}`)); again.Error == nil || again.Error.Code != -32042 {
		t.Fatalf("before the visit: %s", again.raw)
	}

	resp, err := http.Get(el.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "Connected") {
		t.Fatalf("the page: %d %s", resp.StatusCode, body)
	}
	n := s.notification("notifications/elicitation/complete")
	if !strings.Contains(n.raw, `"elicitationId":"`+el.ElicitationID+`"`) {
		t.Errorf("complete notification %s lacks %s", n.raw, el.ElicitationID)
	}
	var r toolResult
	s.response(s.call("tools/call", `{"name":"url_required","arguments":{}}`)).result(t, &r)
	if !strings.Contains(r.text(), "Connected") {
		t.Errorf("after the visit: %q", r.text())
	}
	// A second visit finds nothing pending.
	if resp, err := http.Get(el.URL); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("second visit: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
}

// TestURLRequiredLaterEra: in 2026-07-28 url_required answers a tool error that names the
// way to see the -32042 flow: P on mcpscope's server page, or --protocol 2025-11-25.
func TestURLRequiredLaterEra(t *testing.T) {
	s := startStdio(t)
	r := call2026(t, s.lineClient, "url_required", `{}`, "")
	for _, want := range []string{"not part of 2026-07-28", "try ask_url", "P on the server page", "--protocol 2025-11-25"} {
		if !r.IsError || !strings.Contains(r.text(), want) {
			t.Errorf("isError %v, text %q lacks %q", r.IsError, r.text(), want)
		}
	}
}
