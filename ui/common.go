package ui

import (
	"io"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/internal/common"
)

// The shared base lives in package common (ui/internal/common), below ui and the panes in
// packages of their own. These are its names as ui's callers know them.
type (
	// Common is shared by every component, by pointer: never copied.
	Common = common.Common
	// Styles are every style the views use.
	Styles = common.Styles
	// Palette is the semantic colour set.
	Palette = common.Palette
	// KeyMap is every binding of the program.
	KeyMap = common.KeyMap
	// ActKeys are the bindings that act on the server.
	ActKeys = common.ActKeys
	// Group is a titled set of bindings, for the full help and README.
	Group = common.Group
	// StatusMsg shows a short message in the footer for statusTimeout.
	StatusMsg = common.StatusMsg
	// StatusDoneMsg ends a status message that is still shown.
	StatusDoneMsg = common.StatusDoneMsg
	// Rect is a region of the screen.
	Rect = common.Rect
	// TaskUpdateMsg: a followed task changed state, or its follower ended.
	TaskUpdateMsg = common.TaskUpdateMsg
)

// NewCommon makes the shared state with dark styles until the terminal says otherwise.
func NewCommon(logw io.Writer) *Common { return common.NewCommon(logw) }

// NewStyles builds the styles for a dark or light terminal.
func NewStyles(dark bool) *Styles { return common.NewStyles(dark) }

// DefaultKeyMap is mcpscope's keymap.
func DefaultKeyMap() *KeyMap { return common.DefaultKeyMap() }

// statusCmd shows text in the footer for a while.
func statusCmd(text string, isErr bool) tea.Cmd { return common.StatusCmd(text, isErr) }
