package ui

import (
	"fmt"
	"reflect"

	tea "charm.land/bubbletea/v2"
)

// Masking in the interactive view. Common.Mask masks what is drawn (the screen, the window
// title, status messages, the connection failure) and the --debug log, always;
// Common.FileMask masks what the detail actions hand on (clipboard, pager, editor, saved
// file), unless --no-redact. Both know the secrets the command line gave (bearer token,
// -H values, -e values, the URL's secret parameters) and mask secret shapes; a nil Masker
// masks shapes only.

// maskPanic re-raises a panic of Update, View or a command (guard) with its value masked (Bubble Tea prints
// the value on the terminal), after writing it to the --debug log.
func (m *Model) maskPanic() {
	if r := recover(); r != nil {
		text := m.c.Mask.String(fmt.Sprint(r))
		m.c.Log.Printf("panic: %s", text)
		panic(text)
	}
}

// cmdType is the type of a command, the element type of a batch or sequence message.
var cmdType = reflect.TypeFor[tea.Cmd]()

// guard runs cmd with a panic's value masked, as maskPanic does for Update and View:
// Bubble Tea runs commands on goroutines of its own and prints a panic's value on the
// terminal. The commands of a batch or a sequence it returns are guarded in turn (the
// sequence's message type is Bubble Tea's own: it is found by its element type).
func (m *Model) guard(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		defer m.maskPanic()
		msg := cmd()
		if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == cmdType {
			for i := range v.Len() {
				if e := v.Index(i); !e.IsNil() {
					e.Set(reflect.ValueOf(m.guard(e.Interface().(tea.Cmd))))
				}
			}
		}
		return msg
	}
}
