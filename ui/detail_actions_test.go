package ui

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/ui/internal/common"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

func TestDetailSaveWritesExactBytes(t *testing.T) {
	raw := "{\"jsonrpc\":\"2.0\",  \"id\":4,\"method\":\"tools/call\",\"params\":{\"s\":\"é\"}}\r"
	e, _ := traffic.NewHistory(0).Add(1, dtFrame(12, protocol.ClientToServer, raw))
	d := dtDetail(80, 20)
	d.SetEntry(e)
	p, ok := d.payload()
	if !ok {
		t.Fatal("no payload")
	}
	if got := p.fileName(); got != "mcpscope-12-tools_call.json" {
		t.Fatalf("file name %q", got)
	}
	dir := t.TempDir()
	for i, want := range []string{"mcpscope-12-tools_call.json", "mcpscope-12-tools_call-1.json"} {
		msg := saveCmd(dir, p)().(StatusMsg)
		path := filepath.Join(dir, want)
		if msg.Error || !strings.Contains(msg.Text, path) {
			t.Fatalf("save %d: %+v", i, msg)
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, []byte(raw)) {
			t.Fatalf("save %d wrote %q (%v), want the wire bytes %q", i, got, err, raw)
		}
	}
	if msg := saveCmd(filepath.Join(dir, "missing"), p)().(StatusMsg); !msg.Error {
		t.Fatalf("save into a missing directory: %+v", msg)
	}
}

func TestDetailSaveNotJSON(t *testing.T) {
	raw := "banner \xff\x00 v2"
	e, _ := traffic.NewHistory(0).Add(1, dtFrame(3, protocol.ServerToClient, raw))
	d := dtDetail(80, 20)
	d.SetEntry(e)
	p, _ := d.payload()
	if got := p.fileName(); got != "mcpscope-3-invalid.txt" {
		t.Fatalf("file name %q", got)
	}
	path, err := common.SaveFile(t.TempDir(), p.fileName(), p.data)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, []byte(raw)) {
		t.Fatalf("wrote %q, want %q", got, raw)
	}
}

func TestDetailCopyText(t *testing.T) {
	noClipboardTool(t)
	const raw = `{"jsonrpc":"2.0","id":1,"result":{"a":1}}`
	e, _ := traffic.NewHistory(0).Add(1, dtFrame(1, protocol.ServerToClient, raw))
	d := dtDetail(80, 20)
	d.SetEntry(e)
	pretty, _ := prettyJSON([]byte(raw))
	for _, tt := range []struct {
		raw  bool
		want string
	}{{false, string(pretty) + "\n"}, {true, raw}} {
		d.raw = tt.raw
		cmd := d.Update(tea.KeyPressMsg{Code: 'y', Text: "y"})
		batch, ok := cmd().(tea.BatchMsg)
		if !ok || len(batch) != 2 {
			t.Fatalf("copy: want a clipboard command and a status")
		}
		if got := reflect.ValueOf(batch[0]()).String(); got != tt.want {
			t.Fatalf("clipboard %q, want %q", got, tt.want)
		}
		st := batch[1]().(StatusMsg)
		if st.Error || st.Text != "sent "+textfmt.Commas(int64(len(tt.want)))+" bytes as OSC 52 (the terminal must allow it)" {
			t.Fatalf("status %+v", st)
		}
	}
}

func TestDetailActionsWithoutEntry(t *testing.T) {
	d := dtDetail(80, 20)
	for _, k := range []string{"o", "e", "y"} {
		msg := d.Update(tea.KeyPressMsg{Code: rune(k[0]), Text: k})()
		if st, ok := msg.(StatusMsg); !ok || !st.Error {
			t.Fatalf("%s with nothing selected: %#v", k, msg)
		}
	}
	for _, b := range d.Keys()[2:] {
		if b.Enabled() {
			t.Fatalf("%s enabled with nothing selected", b.Help().Key)
		}
	}
}

func TestViewerArgv(t *testing.T) {
	installed := map[string]bool{"less": true, "more": true, "nano": true, "code": true}
	look := func(name string) (string, error) {
		if installed[name] {
			return "/bin/" + name, nil
		}
		return "", errors.New("not found")
	}
	pagers := [][]string{{"less", "-R"}, {"more"}}
	tests := []struct {
		env      string
		defaults [][]string
		want     []string
		err      string
	}{
		{"", pagers, []string{"less", "-R"}, ""},
		{"more -d", pagers, []string{"more", "-d"}, ""},
		{"  ", pagers, []string{"less", "-R"}, ""},
		{"bat --plain", pagers, nil, `$PAGER is "bat --plain", which cannot be run`},
		{"code --wait", [][]string{{"vi"}}, []string{"code", "--wait"}, ""},
		{"", [][]string{{"vi"}, {"nano"}}, []string{"nano"}, ""},
		{"", [][]string{{"vi"}}, nil, "no pager found (tried vi): set $PAGER"},
	}
	for _, tt := range tests {
		got, err := viewerArgv("PAGER", tt.defaults, func(string) string { return tt.env }, look)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want %q", tt.env, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: %v %v, want %v", tt.env, got, err, tt.want)
		}
	}
}
