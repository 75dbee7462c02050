package ui

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// clipboardTool is a command that puts its standard input on the system clipboard.
type clipboardTool struct {
	name string
	args []string
}

// clipboardTimeout bounds a clipboard command (wl-copy and xclip fork and return at once).
const clipboardTimeout = 3 * time.Second

// clipboardTools are the clipboard commands that can work in this environment, in order of
// preference: wl-copy on Wayland, xclip or xsel on X11, pbcopy on macOS (not over ssh, where
// it would fill the remote machine's clipboard).
func clipboardTools(getenv func(string) string) []clipboardTool {
	var out []clipboardTool
	if getenv("WAYLAND_DISPLAY") != "" {
		out = append(out, clipboardTool{"wl-copy", nil})
	}
	if getenv("DISPLAY") != "" {
		out = append(out, clipboardTool{"xclip", []string{"-selection", "clipboard"}}, clipboardTool{"xsel", []string{"--clipboard", "--input"}})
	}
	if runtime.GOOS == "darwin" && getenv("SSH_CONNECTION") == "" && getenv("SSH_TTY") == "" {
		out = append(out, clipboardTool{"pbcopy", nil})
	}
	return out
}

// copyWithTool runs the first clipboard command found on PATH with t on its stdin. It
// returns the command's name, or "" when none is installed; err when the one found failed.
func copyWithTool(t []byte) (string, error) {
	for _, tool := range clipboardTools(os.Getenv) {
		path, err := exec.LookPath(tool.name)
		if err != nil {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), clipboardTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, path, tool.args...)
		cmd.Stdin = bytes.NewReader(t)
		// No pipes for its output: a command that forks to keep serving the selection
		// would hold them open and Run would wait for it.
		if err := cmd.Run(); err != nil {
			return tool.name, fmt.Errorf("%s: %w", tool.name, err)
		}
		return tool.name, nil
	}
	return "", nil
}

// osc52Note says what may stop an OSC 52 sequence on its way to the clipboard, briefly (it
// ends a status line): inside tmux, a set-clipboard other than on (the default, external,
// drops it), else the terminal itself.
func osc52Note() string {
	if os.Getenv("TMUX") == "" {
		return " (the terminal must allow it)"
	}
	out, err := exec.Command("tmux", "show-options", "-gv", "set-clipboard").Output()
	if err == nil && strings.TrimSpace(string(out)) == "on" {
		return " through tmux (the terminal must allow it)"
	}
	return ", which tmux drops: tmux set -g set-clipboard on"
}

// clipboardMsg puts t on the clipboard: with a clipboard command when one is installed and
// usable here, else as an OSC 52 sequence to the terminal, saying honestly that it was sent
// (nothing tells whether the terminal took it) and what may block it. note ends the status.
func clipboardMsg(t []byte, note string) tea.Msg {
	n := textfmt.Commas(int64(len(t)))
	tool, err := copyWithTool(t)
	if tool != "" && err == nil {
		return StatusMsg{Text: fmt.Sprintf("copied %s bytes with %s%s", n, tool, note)}
	}
	text := fmt.Sprintf("sent %s bytes as OSC 52%s%s", n, osc52Note(), note)
	if err != nil {
		text = err.Error() + "; " + text
	}
	status := StatusMsg{Text: text}
	return tea.BatchMsg{tea.SetClipboard(string(t)), func() tea.Msg { return status }}
}
