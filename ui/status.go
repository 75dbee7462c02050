package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
)

// statusView is the always-visible status bar.
func (m *Model) statusView(w int) string {
	s := m.c.Styles
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, s.StatusKey.Render(k+" ")+s.StatusValue.Render(v))
		}
	}
	state := m.state.String()
	stateStyle := s.StatusWarn
	switch m.state {
	case session.StateReady:
		stateStyle = s.StatusOK
	case session.StateClosed:
		stateStyle = s.StatusBad
		if m.stateText != "" {
			state += ": " + m.stateText
		}
	}
	parts = append(parts, stateStyle.Render(" "+state))
	add("via", m.transportName())
	if m.info.Implementation.Name != "" {
		add("server", strings.TrimSpace(m.info.Implementation.Name+" "+m.info.Implementation.Version))
	}
	if m.info.Revision != "" {
		era := "stateful"
		if m.info.Stateless {
			era = "stateless"
		}
		add("protocol", string(m.info.Revision)+" "+era)
	}
	if m.info.SessionID != "" {
		add("session", clip(m.info.SessionID, 12))
	}
	counts := fmt.Sprintf("%d in flight", m.hist.InFlight())
	parts = append(parts, s.StatusKey.Render(counts))
	if m.hist.Errors > 0 {
		parts = append(parts, s.StatusBad.Render(fmt.Sprintf("%d errors", m.hist.Errors)))
	}
	if m.hist.Findings > 0 {
		parts = append(parts, s.StatusWarn.Render(fmt.Sprintf("%d findings", m.hist.Findings)))
	}
	if m.hist.Dropped > 0 {
		parts = append(parts, s.StatusWarn.Render(fmt.Sprintf("%d dropped from memory", m.hist.Dropped)))
	}
	if !m.timeline.Following() && m.page == pageTraffic {
		parts = append(parts, s.StatusKey.Render("paused (G follows)"))
	}
	line := strings.Join(parts, s.StatusKey.Render("  "))
	if ansi.StringWidth(line) > w {
		line = ansi.Truncate(line, w, "…")
	}
	return s.StatusBar.Render(padANSI(line, w))
}

func (m *Model) transportName() string {
	if m.info.Transport != "" {
		return m.info.Transport
	}
	return m.opts.TransportName
}
