package ui

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/session"
)

// waitingAsks is how many asks wait in m's ask dialog.
func waitingAsks(m *Model) int {
	if q := dialogOf[*askQueue](m); q != nil {
		return len(q.asks)
	}
	return 0
}

// urlAsk delivers to m an elicitation in URL mode, as the Asker hands it over, and returns
// it; its answer is read from the returned channel.
func urlAsk(m *Model, id uint64) (*Ask, <-chan askReply) {
	reply := make(chan askReply, 1)
	q := &Ask{ID: id, Req: &session.ServerRequest{Method: methodElicit,
		Params: json.RawMessage(`{"mode":"url","message":"Log in","url":"https://example.com/login","elicitationId":"e1"}`)},
		reply: reply}
	m.Update(AskMsg{Ask: q})
	return q, reply
}

// stackTypes names the dialogs on m's stack, bottom first.
func stackTypes(m *Model) []string {
	var out []string
	for _, d := range m.dialogs {
		out = append(out, typeName(d))
	}
	return out
}

func typeName(d Dialog) string {
	switch d.(type) {
	case *filterDialog:
		return "filter"
	case *askQueue:
		return "ask"
	case *composer:
		return "compose"
	case *levelPicker:
		return "level"
	case *helpDialog:
		return "help"
	case *opener:
		return "opener"
	case *authWaitDialog:
		return "authwait"
	}
	return "other"
}

// TestDialogStackPrecedence: what the server asks opens over the filter the user is typing
// in and takes the keys; esc answers and closes only the ask, and the filter, with its
// text, has the keys again; a second esc closes it.
func TestDialogStackPrecedence(t *testing.T) {
	m := newTimelineModel(t, Options{}, 100, 30)
	feedEvents(m, mixedTraffic(newEvWire(), 6)...)
	pressKey(m, "/")
	typeKeys(m, "tools")
	_, reply := urlAsk(m, 1)
	if got := strings.Join(stackTypes(m), " "); got != "filter ask" {
		t.Fatalf("stack %q, want the ask over the filter", got)
	}
	scr := plainScreen(m)
	if !strings.Contains(scr, "The server asks you to open a page") || !strings.Contains(scr, "/tools") {
		t.Errorf("the ask is drawn over the body and the filter stays in the footer:\n%s", scr)
	}
	typeKeys(m, "x")
	if got := m.filter.Value(); got != "tools" {
		t.Errorf("a key with the ask on top reached the filter: %q", got)
	}
	if runCmdSync(t, m, pressKey(m, "esc")) {
		t.Fatal("esc quit")
	}
	if r := <-reply; string(r.result) != `{"action":"cancel"}` {
		t.Errorf("esc on a URL elicitation answered %s", r.result)
	}
	if got := strings.Join(stackTypes(m), " "); got != "filter" {
		t.Fatalf("after esc the stack is %q, want the filter alone", got)
	}
	typeKeys(m, "/")
	if got := m.filter.Value(); got != "tools/" {
		t.Errorf("the filter does not have the keys again: %q", got)
	}
	pressKey(m, "esc")
	if len(m.dialogs) != 0 || m.filter.Value() != "" {
		t.Errorf("the second esc leaves %v, filter %q", stackTypes(m), m.filter.Value())
	}
}

// TestDialogAsksQueue: asks that arrive while one is open wait behind it in arrival order,
// in one dialog; the next shows when the first is answered, and the dialog leaves the stack
// with the last.
func TestDialogAsksQueue(t *testing.T) {
	m := newTimelineModel(t, Options{}, 100, 30)
	pressKey(m, ":")
	first, r1 := urlAsk(m, 1)
	_, r2 := urlAsk(m, 2)
	if got := strings.Join(stackTypes(m), " "); got != "compose ask" || waitingAsks(m) != 2 {
		t.Fatalf("stack %q with %d asks, want one ask dialog of 2 over the composer", got, waitingAsks(m))
	}
	if q := dialogOf[*askQueue](m); q.asks[0].q != first {
		t.Errorf("the first ask to arrive is not the one on screen")
	}
	if scr := plainScreen(m); !strings.Contains(scr, "+1 more waiting") {
		t.Errorf("the queue is not counted:\n%s", scr)
	}
	runCmdSync(t, m, pressKey(m, "enter"))
	if r := <-r1; string(r.result) != `{"action":"accept"}` {
		t.Errorf("enter answered the first ask with %s", r.result)
	}
	if waitingAsks(m) != 1 {
		t.Fatalf("%d asks wait after the first was answered", waitingAsks(m))
	}
	runCmdSync(t, m, pressKey(m, "esc"))
	if r := <-r2; string(r.result) != `{"action":"cancel"}` {
		t.Errorf("esc answered the second ask with %s", r.result)
	}
	if got := strings.Join(stackTypes(m), " "); got != "compose" {
		t.Errorf("after both asks the stack is %q, want the composer", got)
	}
	if ks := m.dialogKeys(); len(ks) == 0 || !strings.Contains(m.footer(), "send") {
		t.Errorf("the composer's keys are not on the help line: %q", m.footer())
	}
}

// opener is a dialog that opens the log level picker over itself when o is pressed: a
// dialog opened from a dialog.
type opener struct {
	keys []string // the keys it received
}

func (o *opener) Update(m *Model, msg tea.Msg) (tea.Cmd, DialogResult) {
	kp, ok := msg.(tea.KeyPressMsg)
	switch {
	case !ok:
		return nil, DialogPass
	case kp.String() == "o":
		m.pushDialog(&levelPicker{})
	case kp.String() == "esc":
		return nil, DialogCancel
	}
	o.keys = append(o.keys, kp.String())
	return nil, DialogStay
}

func (o *opener) Draw(m *Model, scr *Screen) { m.overlayDialog(scr, []string{"opener dialog"}) }
func (o *opener) Keys(*Model) []key.Binding  { return nil }
func (o *opener) SetSize(Layout)             {}

// TestDialogOpenedFromDialog: a dialog that opens another keeps its place below it; the
// new one has the keys, is drawn over it, and esc closes it alone.
func TestDialogOpenedFromDialog(t *testing.T) {
	m := newTimelineModel(t, Options{}, 100, 30)
	o := &opener{}
	m.pushDialog(o)
	pressKey(m, "o")
	if got := strings.Join(stackTypes(m), " "); got != "opener level" {
		t.Fatalf("stack %q, want the level picker over the opener", got)
	}
	lp := dialogOf[*levelPicker](m)
	pressKey(m, "down")
	if lp.cursor != 1 || len(o.keys) != 1 {
		t.Errorf("down: picker cursor %d, opener got %v", lp.cursor, o.keys)
	}
	if scr := plainScreen(m); !strings.Contains(scr, "Server log level") {
		t.Errorf("the picker is not drawn:\n%s", scr)
	}
	if !strings.Contains(m.footer(), "enter") {
		t.Errorf("the help line is not the picker's: %q", m.footer())
	}
	pressKey(m, "esc")
	if got := strings.Join(stackTypes(m), " "); got != "opener" {
		t.Fatalf("esc left %q, want the opener alone", got)
	}
	pressKey(m, "x")
	if got := strings.Join(o.keys, " "); got != "o x" {
		t.Errorf("the opener got %q, want o then x", got)
	}
	pressKey(m, "esc")
	if len(m.dialogs) != 0 {
		t.Errorf("esc leaves %v", stackTypes(m))
	}
}

// TestDialogCtrlCPasses: the dialogs that edit text leave ctrl+c to what is below them, so
// it quits from the composer as from anywhere.
func TestDialogCtrlCPasses(t *testing.T) {
	m := newTimelineModel(t, Options{}, 100, 30)
	pressKey(m, ":")
	if dialogOf[*composer](m) == nil {
		t.Fatal(": did not open the composer")
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	if !quits(cmd) {
		t.Error("ctrl+c in the composer does not quit")
	}
}

// TestDialogHelpUnderAsk: the full help replaces the body; an ask that arrives is drawn
// over it, and once answered the help is back with the keys.
func TestDialogHelpUnderAsk(t *testing.T) {
	m := newTimelineModel(t, Options{}, 120, 40)
	pressKey(m, "?")
	urlAsk(m, 1)
	scr := plainScreen(m)
	if !strings.Contains(scr, "mcpscope keys") || !strings.Contains(scr, "open a page") {
		t.Errorf("the ask is not drawn over the help:\n%s", scr)
	}
	pressKey(m, "?") // the ask ignores it, and the help below does not get it
	if got := strings.Join(stackTypes(m), " "); got != "help ask" {
		t.Fatalf("stack %q", got)
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl})
	runCmdSync(t, m, cmd)
	if got := strings.Join(stackTypes(m), " "); got != "help" {
		t.Fatalf("after ctrl+d the stack is %q, want the help", got)
	}
	pressKey(m, "?")
	if len(m.dialogs) != 0 || strings.Contains(plainScreen(m), "mcpscope keys") {
		t.Errorf("? does not close the help: %v", stackTypes(m))
	}
}

// cyclomatic is the cyclomatic complexity of fn as gocyclo counts it: one, plus one for
// each if, for, range, non-default case, comm clause, && and ||.
func cyclomatic(fn *ast.FuncDecl) int {
	n := 1
	ast.Inspect(fn, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			n++
		case *ast.CaseClause:
			if x.List != nil {
				n++
			}
		case *ast.CommClause:
			if x.Comm != nil {
				n++
			}
		case *ast.BinaryExpr:
			if x.Op == token.LAND || x.Op == token.LOR {
				n++
			}
		}
		return true
	})
	return n
}

// TestKeyComplexity keeps the model's key dispatch a short list of handlers: precedence is
// the dialog stack and the globalKeys table, not code.
func TestKeyComplexity(t *testing.T) {
	limits := map[string]int{"key": 5, "Update": 5, "globalKey": 6}
	for _, file := range []string{"model.go", "keys_global.go"} {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			limit, want := 0, false
			if ok && fn.Recv != nil {
				limit, want = limits[fn.Name.Name]
			}
			if !want {
				continue
			}
			delete(limits, fn.Name.Name)
			c := cyclomatic(fn)
			t.Logf("Model.%s: cyclomatic complexity %d", fn.Name.Name, c)
			if c > limit {
				t.Errorf("Model.%s has cyclomatic complexity %d, over %d", fn.Name.Name, c, limit)
			}
		}
	}
	if len(limits) > 0 {
		t.Errorf("not found: %v", limits)
	}
}
