package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/common"
)

// logLevels are the syslog levels MCP log messages use, least severe first.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// logLabel is the row label of a notifications/message: the method, then the level, the
// logger and the data, coloured by level (debug muted … error and worse red).
//
// The params are split by the protocol's scanner and only the first bytes of the data are
// decoded: a row shows less, and a flood of large messages must not cost a full JSON decode
// of each on the UI loop.
func logLabel(p *common.RowPaints, f *protocol.Frame) string {
	var m struct {
		Level, Logger string
		Data          []byte
	}
	members, ok := protocol.ObjectMembers(f.Params)
	for _, mb := range members {
		switch mb.Key {
		case "level":
			ok = ok && json.Unmarshal(mb.Value, &m.Level) == nil
		case "logger":
			ok = ok && json.Unmarshal(mb.Value, &m.Logger) == nil
		case "data":
			m.Data = mb.Value
		}
	}
	if !ok || m.Level == "" {
		return cleanText(f.Method)
	}
	text := f.Method + " " + m.Level
	if m.Logger != "" {
		text += " [" + m.Logger + "]"
	}
	if s, ok := stringPrefix(m.Data, 400); ok {
		text += " " + s
	} else if len(m.Data) > 0 {
		text += " " + clipBytes(m.Data, 200)
	}
	text = cleanText(text)
	switch m.Level {
	case "debug":
		return p.Muted.Paint(text)
	case "info", "notice":
		return p.Notification.Paint(text)
	case "warning":
		return p.Finding.Paint(text)
	case "error", "critical", "alert", "emergency":
		return p.Err.Paint(text)
	}
	return text
}

// stringPrefix decodes about the first n bytes of the JSON string v (all of it when it is
// short); ok is false when v is not a string.
func stringPrefix(v []byte, n int) (string, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	if len(v) > n+2 {
		cut := cutUTF8(v, n+1)
		if i := bytes.LastIndexByte(v[cut-6:cut], '\\'); i >= 0 {
			cut -= 6 - i // never inside an escape (\uXXXX is the longest)
		}
		if odd := cut - len(bytes.TrimRight(v[:cut], "\\")); odd%2 == 1 {
			cut-- // the last backslash escapes the one before the cut
		}
		v = append(v[:cut:cut], '"')
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

// isLate reports whether a response came after mcpscope gave up on its request (cancelled
// or timed out): the session flags it.
func isLate(f *protocol.Frame) bool {
	if !f.Kind.IsResponse() {
		return false
	}
	for _, fd := range f.Findings {
		if fd.Code == protocol.FindLateResponse {
			return true
		}
	}
	return false
}

// levelPicker is the small list of log levels the L key opens.
type levelPicker struct {
	cursor int
}

// levelSetMsg reports the outcome of a log level change.
type levelSetMsg struct {
	Gen   int
	Level string
	Err   error
	Meta  bool // the level rides on each request's _meta (2026-07-28) instead of logging/setLevel
}

// setLevelCmd asks session s for log messages at level and above.
func setLevelCmd(gen int, s *session.Session, level string, stateless bool) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return levelSetMsg{Gen: gen, Level: level, Err: s.SetLogLevel(ctx, level), Meta: stateless}
	}
}

var _ Dialog = (*levelPicker)(nil)

// Update implements Dialog: ↑/↓ choose, enter sets the level, esc closes; pastes are
// swallowed, other messages pass on.
func (lp *levelPicker) Update(m *Model, msg tea.Msg) (tea.Cmd, DialogResult) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return lp.key(m, msg)
	case tea.PasteMsg:
		return nil, DialogStay
	}
	return nil, DialogPass
}

// key handles a key while the level picker is open.
func (lp *levelPicker) key(m *Model, msg tea.KeyPressMsg) (tea.Cmd, DialogResult) {
	k := m.c.Keys
	switch {
	case msg.String() == "ctrl+c":
		return nil, DialogPass
	case key.Matches(msg, k.Up):
		lp.cursor = (lp.cursor + len(logLevels) - 1) % len(logLevels)
	case key.Matches(msg, k.Down):
		lp.cursor = (lp.cursor + 1) % len(logLevels)
	case key.Matches(msg, k.Open):
		if m.sess == nil {
			return statusCmd("no session to set the log level of", true), DialogDone
		}
		return setLevelCmd(m.gen, m.sess, logLevels[lp.cursor], m.info.Stateless), DialogDone
	case key.Matches(msg, k.Back):
		return nil, DialogCancel
	}
	return nil, DialogStay
}

// Draw implements Dialog: the picker over the body.
func (lp *levelPicker) Draw(m *Model, scr *Screen) {
	m.overlayDialog(scr, strings.Split(lp.view(m), "\n"))
}

// Keys implements Dialog.
func (*levelPicker) Keys(m *Model) []key.Binding {
	g := m.c.Keys
	return []key.Binding{g.Up, g.Down, g.Open, g.Back}
}

// SetSize implements Dialog.
func (*levelPicker) SetSize(Layout) {}

// view draws the level picker.
func (lp *levelPicker) view(m *Model) string {
	s := m.c.Styles
	lines := []string{s.Bold.Render("Server log level"), s.Muted.Render("messages at this level and above"), ""}
	for i, l := range logLevels {
		mark := "  "
		if i == lp.cursor {
			mark = s.Accent.Render("▶ ")
		}
		lines = append(lines, mark+logLevelStyle(s, l).Render(l))
	}
	lines = append(lines, "", s.Muted.Render("enter sets · esc closes"))
	return strings.Join(lines, "\n")
}

// logLevelStyle is the colour of a level.
func logLevelStyle(s *Styles, level string) lipgloss.Style {
	switch level {
	case "debug":
		return s.Muted
	case "info", "notice":
		return s.Notification
	case "warning":
		return s.Finding
	}
	return s.Error
}

// levelSet shows the outcome of a log level change.
func (m *Model) levelSet(msg levelSetMsg) tea.Cmd {
	switch {
	case msg.Err != nil:
		return statusCmd(fmt.Sprintf("log level %s: %v", msg.Level, msg.Err), true)
	case msg.Meta:
		return statusCmd("log level "+msg.Level+": sent in each request's _meta from now on", false)
	}
	return statusCmd("log level "+msg.Level+" (logging/setLevel)", false)
}
