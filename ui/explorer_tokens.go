package ui

import (
	"encoding/json"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol/tokens"
	"github.com/mcpscope/mcpscope/session"
)

// toolTokensMsg carries the context cost of tools, counted in a command: tokens by the
// tool's definition as sent (so a result for definitions since replaced matches nothing).
type toolTokensMsg struct {
	counts map[string]int
	err    error
}

func (toolTokensMsg) explorerMsg() {}

// CountTokensCmd counts, off the UI goroutine, the tokens of the listed tools not counted
// yet (tokens.Tool, o200k_base): the tool list shows each tool's cost. nil when every tool
// is counted.
func (x *Explorer) CountTokensCmd() tea.Cmd {
	var todo []json.RawMessage
	for _, t := range x.tabs {
		if t.kind != session.ListTools {
			continue
		}
		for _, it := range t.items {
			if _, ok := x.toolTokens[string(it.raw)]; !ok {
				todo = append(todo, it.raw)
			}
		}
	}
	if len(todo) == 0 {
		return nil
	}
	return func() tea.Msg {
		counts := make(map[string]int, len(todo))
		for _, raw := range todo {
			n, err := tokens.Tool(raw)
			if err != nil {
				return toolTokensMsg{err: err}
			}
			counts[string(raw)] = n
		}
		return toolTokensMsg{counts: counts}
	}
}

// setToolTokens keeps the counts a command made. Bounded: one map entry per counted tool.
func (x *Explorer) setToolTokens(msg toolTokensMsg) {
	if msg.err != nil {
		x.c.Log.Printf("explorer: token counts: %v", msg.err)
		return
	}
	if x.toolTokens == nil || len(x.toolTokens) > 4*len(msg.counts)+1024 {
		x.toolTokens = make(map[string]int, len(msg.counts))
	}
	for k, n := range msg.counts {
		x.toolTokens[k] = n
	}
}

// tokenBadge is a tool row's context cost, once counted: "1.2k tok".
func (x *Explorer) tokenBadge(it *exItem) []badge {
	n, ok := x.toolTokens[string(it.raw)]
	if !ok || it.kind != session.ListTools {
		return nil
	}
	return []badge{{compactTokens(n) + " tok", x.c.Styles.Muted}}
}

// compactTokens writes a count in at most four characters: 950, 1.2k, 12k.
func compactTokens(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 10000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprintf("%dk", (n+500)/1000)
}
