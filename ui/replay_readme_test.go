package ui_test

import (
	"testing"

	"github.com/mcpscope/mcpscope/ui"
	"github.com/mcpscope/mcpscope/ui/replay"
)

// The replay report's key table in README.md sits between these two lines.
const (
	replayKeysBegin = "<!-- replay-keys:begin -->\n"
	replayKeysEnd   = "<!-- replay-keys:end -->"
)

// TestReadmeReplayKeyTable checks that README.md's table of the replay report's keys is
// the one its keymap generates. Regenerate it with
//
//	go test ./ui -run Readme -update-readme
func TestReadmeReplayKeyTable(t *testing.T) {
	ui.CheckReadmeSection(t, "replay key table", replayKeysBegin, replayKeysEnd, replay.NewKeyMap(ui.DefaultKeyMap()).MarkdownTable())
}
