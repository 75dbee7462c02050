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

// StatusDoneMsg ends the status message with Text, if it is still the one shown: what it
// said is over (a read was answered), and a later message stays.
type StatusDoneMsg struct{ Text string }

// StatusDoneCmd ends the status message text, if it is still shown.
func StatusDoneCmd(text string) tea.Cmd {
	return func() tea.Msg { return StatusDoneMsg{Text: text} }
}
