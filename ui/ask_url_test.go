package ui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
)

// longURL is a page address longer than an 80-column dialog, with hyphens and a query.
const longURL = "https://auth.example-service.com/oauth2/authorize-device?client-id=mcpscope-demo-client&state=a1b2c3d4e5f6g7h8&redirect=https://app.example-service.com/after-login"

// TestAskURLCopyAndSelectable: a URL-mode elicitation/create dialog at 80×24 offers y (copy
// URL) in its help line and the footer, as the -32042 dialog does; y copies the whole URL;
// the URL is drawn below its label in pieces of exactly the dialog's inner width (nothing
// else on those lines, no break at a hyphen), each a hyperlink to the whole URL.
func TestAskURLCopyAndSelectable(t *testing.T) {
	noClipboardTool(t)
	m := newTimelineModel(t, Options{}, 80, 24)
	q := &Ask{Req: &session.ServerRequest{Method: "elicitation/create",
		Params: json.RawMessage(`{"mode":"url","message":"Log in","url":"` + longURL + `","elicitationId":"e1"}`)}}
	m.pushDialog(&askQueue{asks: []*askDialog{newAskDialog(m.c, q)}})
	scr := plainScreen(m)
	if !strings.Contains(scr, "o open in browser · y copy URL · enter/ctrl+s accept · ctrl+d decline ·") || !strings.Contains(scr, "│ esc cancel") {
		t.Errorf("the dialog's help line lacks y copy URL:\n%s", scr)
	}
	if f := ansi.Strip(m.footer()); !strings.Contains(f, "y copy URL") {
		t.Errorf("the footer lacks y copy URL: %q", f)
	}
	iw, _ := bodyDialogSize(m.layout)
	for i := 0; i < len(longURL); i += iw {
		piece := longURL[i:min(len(longURL), i+iw)]
		if row := screenRow(scr, piece); row == "" || strings.TrimSpace(strings.Trim(strings.TrimSpace(row), "│")) != piece {
			t.Errorf("URL piece %q is not alone on its line:\n%s", piece, scr)
		}
	}
	if raw := m.Render(); !strings.Contains(raw, "\x1b]8;id=mcpscope-url;"+longURL) {
		t.Errorf("the URL's pieces are not hyperlinks to the whole URL")
	}

	cmd := pressKey(m, "y")
	if cmd == nil {
		t.Fatal("y does nothing in the URL dialog")
	}
	batch, ok := cmd().(tea.BatchMsg)
	if !ok || len(batch) != 2 {
		t.Fatalf("y: %#v, want the clipboard and a status", batch)
	}
	if got := fmt.Sprint(batch[0]()); got != longURL {
		t.Errorf("y copied %q, want the whole URL", got)
	}
	if st := batch[1]().(StatusMsg).Text; !strings.Contains(st, "(the URL)") {
		t.Errorf("y's status: %q", st)
	}
	if waitingAsks(m) != 1 {
		t.Errorf("y answered the elicitation")
	}
}

// TestAskURLOpensOnlyWeb: a URL-mode elicitation's javascript: URL is shown with a warning
// that mcpscope will not open it, and o reaches no opener (here xdg-open on $PATH, a
// recorder); an https URL goes to the opener as one argument.
func TestAskURLOpensOnlyWeb(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "argv")
	if err := os.WriteFile(filepath.Join(dir, "xdg-open"), []byte("#!/bin/sh\nprintf '%s\\0' \"$@\" > '"+out+"'\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	t.Setenv("BROWSER", "")
	if runtime.GOOS != "linux" {
		t.Setenv("BROWSER", filepath.Join(dir, "xdg-open"))
	}
	for _, c := range []struct {
		url  string
		open bool
	}{{"javascript:alert(document.cookie)", false}, {"--new-window", false}, {"https://example.com/login", true}} {
		m := newTimelineModel(t, Options{}, 80, 24)
		q := &Ask{Req: &session.ServerRequest{Method: "elicitation/create",
			Params: json.RawMessage(`{"mode":"url","message":"Log in","url":"` + c.url + `","elicitationId":"e1"}`)}}
		m.pushDialog(&askQueue{asks: []*askDialog{newAskDialog(m.c, q)}})
		if warned := strings.Contains(plainScreen(m), "will not open it"); warned == c.open {
			t.Errorf("%s: warned %v", c.url, warned)
		}
		cmd := pressKey(m, "o")
		if cmd == nil {
			t.Fatalf("%s: o does nothing", c.url)
		}
		st, _ := cmd().(StatusMsg)
		got, err := os.ReadFile(out)
		_ = os.Remove(out)
		switch {
		case c.open && (st.Error || err != nil || string(got) != c.url+"\x00"):
			t.Errorf("%s: status %q, the opener got %q (%v)", c.url, st.Text, got, err)
		case !c.open && (!st.Error || err == nil):
			t.Errorf("%s: status %q, the opener got %q", c.url, st.Text, got)
		}
	}
}
