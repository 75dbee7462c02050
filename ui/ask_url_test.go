package ui

import (
	"encoding/json"
	"fmt"
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
