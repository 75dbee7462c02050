package ui

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestLastArgsThroughModel: the remembered arguments the model asks the explorer to load
// come back to the explorer through Update, and an unreadable file reaches the status line.
// (A failed save: TestLastArgsSaveFailed in ui/explorer.)
func TestLastArgsThroughModel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "args.json")
	if err := os.WriteFile(path, []byte(`{"servers":{"srv":{"tools/call echo":{"text":"kept"}}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	m := NewModel(NewCommon(nil), Options{ArgsFile: path, Target: "srv"})
	m.Update(m.explorer.LoadLastArgsCmd()())
	var got bytes.Buffer
	if err := json.Compact(&got, m.explorer.RememberedArgs("tools/call echo")); err != nil || got.String() != `{"text":"kept"}` {
		t.Errorf("the remembered arguments did not reach the explorer: %q %v", got.String(), err)
	}

	if err := os.WriteFile(path, []byte(`{"servers":`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, cmd := m.Update(m.explorer.LoadLastArgsCmd()())
	if cmd == nil {
		t.Fatal("an unreadable file says nothing")
	}
	var st StatusMsg
	for _, msg := range drainCmd(cmd) {
		if s, ok := msg.(StatusMsg); ok {
			st = s
		}
	}
	if !st.Error || !strings.Contains(st.Text, "remembered arguments: ") {
		t.Errorf("the status of an unreadable file: %#v", st)
	}
}

// drainCmd runs cmd and the commands of the batches it returns, and returns the messages.
func drainCmd(cmd tea.Cmd) []tea.Msg {
	var msgs []tea.Msg
	for queue := []tea.Cmd{cmd}; len(queue) > 0; queue = queue[1:] {
		if queue[0] == nil {
			continue
		}
		switch msg := queue[0]().(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			msgs = append(msgs, msg)
		}
	}
	return msgs
}
