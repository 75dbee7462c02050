package explorer

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/internal/common"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
)

// The shared base (ui/internal/common) under the names the explorer's files use.
type (
	// Common is shared by every component, by pointer: never copied.
	Common = common.Common
	// Styles are every style the views use.
	Styles = common.Styles
	// KeyMap is every binding of the program.
	KeyMap = common.KeyMap
	// Rect is a region of the screen.
	Rect = common.Rect
	// StatusMsg shows a short message in the footer.
	StatusMsg = common.StatusMsg
	// TaskUpdateMsg: a followed task changed state, or its follower ended.
	TaskUpdateMsg = common.TaskUpdateMsg
)

// statusCmd shows text in the footer for a while.
func statusCmd(text string, isErr bool) tea.Cmd { return common.StatusCmd(text, isErr) }

// escapeText is server text as the views show it, escaped (jsonview.Visible).
func escapeText(s string) string { return jsonview.Visible(s) }

// escapeProse is escapeText for prose that keeps its line breaks.
func escapeProse(s string) string { return jsonview.VisibleProse(s) }

// cutUTF8 returns n, moved back so b[:n] does not split a UTF-8 sequence.
func cutUTF8[T string | []byte](b T, n int) int { return jsonview.CutUTF8(b, n) }
