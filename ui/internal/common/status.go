package common

import tea "charm.land/bubbletea/v2"

// StatusMsg shows Text in the footer for a while, as an error when Error is set.
type StatusMsg struct {
	Text  string
	Error bool
}

// StatusCmd shows text in the footer for a while.
func StatusCmd(text string, isErr bool) tea.Cmd {
	return func() tea.Msg { return StatusMsg{Text: text, Error: isErr} }
}
