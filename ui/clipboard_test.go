package ui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// noClipboardTool clears what would let a clipboard command or tmux be used.
func noClipboardTool(t *testing.T) {
	t.Helper()
	for _, k := range []string{"TMUX", "DISPLAY", "WAYLAND_DISPLAY"} {
		t.Setenv(k, "")
	}
}

// TestCopyWithClipboardCommand: with DISPLAY set and xclip on PATH, y copies with it (its
// stdin gets the text) and sends no OSC 52.
func TestCopyWithClipboardCommand(t *testing.T) {
	noClipboardTool(t)
	dir := t.TempDir()
	got := filepath.Join(dir, "clipboard")
	script := fmt.Sprintf("#!/bin/sh\n[ \"$1 $2\" = \"-selection clipboard\" ] || exit 3\nexec /bin/cat > %q\n", got)
	if err := os.WriteFile(filepath.Join(dir, "xclip"), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	t.Setenv("DISPLAY", ":0")
	msg := clipboardMsg([]byte("hello clipboard"), "")
	st, ok := msg.(StatusMsg)
	if !ok || st.Text != "copied 15 bytes with xclip" {
		t.Fatalf("copy with xclip: %#v", msg)
	}
	if b, _ := os.ReadFile(got); string(b) != "hello clipboard" {
		t.Errorf("xclip got %q", b)
	}
	// A clipboard command that fails falls back to OSC 52, and says so.
	if err := os.WriteFile(filepath.Join(dir, "xclip"), []byte("#!/bin/sh\nexit 1\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	batch, ok := clipboardMsg([]byte("x"), "").(tea.BatchMsg)
	if !ok || len(batch) != 2 || !strings.Contains(batch[1]().(StatusMsg).Text, "xclip: exit status 1; sent 1 bytes as OSC 52") {
		t.Errorf("failing xclip: %#v", batch)
	}
}

// TestCopyInsideTmux runs a real tmux server: with its default set-clipboard (external),
// which drops an application's OSC 52, y says the sequence was sent, that tmux drops it and
// how to enable it; with set-clipboard on it says it went through tmux.
func TestCopyInsideTmux(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Fatalf("tmux is not installed (%v): install it (apt-get install tmux)", err)
	}
	noClipboardTool(t)
	dir, err := os.MkdirTemp("", "mcpscope-clip-") // a socket path must be short
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "s")
	run := func(args ...string) {
		t.Helper()
		if out, err := exec.Command(tmux, append([]string{"-S", sock, "-f", "/dev/null"}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
	}
	run("new-session", "-d", "-s", "clip", "sleep 600")
	t.Cleanup(func() { _ = exec.Command(tmux, "-S", sock, "kill-server").Run() })
	t.Setenv("TMUX", sock+",1,0")

	status := func() string {
		t.Helper()
		batch, ok := clipboardMsg([]byte("abc"), "").(tea.BatchMsg)
		if !ok || len(batch) != 2 {
			t.Fatalf("want OSC 52 and a status, got %#v", batch)
		}
		if got := reflect.ValueOf(batch[0]()).String(); got != "abc" {
			t.Errorf("OSC 52 carries %q", got)
		}
		return batch[1]().(StatusMsg).Text
	}
	if got := status(); got != "sent 3 bytes as OSC 52, which tmux drops: tmux set -g set-clipboard on" {
		t.Errorf("default tmux: %q", got)
	}
	run("set", "-g", "set-clipboard", "on")
	if got := status(); got != "sent 3 bytes as OSC 52 through tmux (the terminal must allow it)" {
		t.Errorf("tmux with set-clipboard on: %q", got)
	}
}
