package explorer

import (
	"encoding/json"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/common"
)

// TestRememberedArgReplacedByTyping: a form opened on the arguments sent last time takes
// the first key typed on a value as its replacement, as it does a schema default ("hello
// world" then "slow" is "slow", not "hello worldslow"); a draft left unsent is added to.
func TestRememberedArgReplacedByTyping(t *testing.T) {
	open := func() *Explorer {
		x := NewExplorer(common.NewCommon(nil))
		x.SetSize(80, 24)
		x.SetLastArgs("", "srv")
		tools := []json.RawMessage{json.RawMessage(`{"name":"echo","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}`)}
		x.SetLists(map[session.ListKind][]json.RawMessage{session.ListTools: tools}, map[session.ListKind]error{})
		x.last.forms["tools/call echo"] = json.RawMessage(`{"text":"hello world"}`)
		return x
	}
	typed := func(x *Explorer, s string) string {
		for _, r := range s {
			x.form.f.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		}
		x.form.f.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
		v, err, ok := x.FormValue()
		if err != nil || !ok {
			t.Fatalf("no form value: %v %v", err, ok)
		}
		return string(v)
	}
	x := open()
	x.toolForm(x.selected())
	if got := typed(x, "slow"); got != `{"text":"slow"}` {
		t.Errorf("typing on the remembered argument gave %s, want it replaced", got)
	}

	x = open()
	x.drafts = map[string]json.RawMessage{"tools/call echo": json.RawMessage(`{"text":"half typed"}`)}
	x.toolForm(x.selected())
	if got := typed(x, "!"); got != `{"text":"half typed!"}` {
		t.Errorf("typing on the draft gave %s, want it added to", got)
	}
}
