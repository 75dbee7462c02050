package explorer

import (
	"encoding/json"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol/tokens"
	"github.com/mcpscope/mcpscope/session"
)

// toolTokensMsg carries the context cost of tools, counted in a command, by the item that
// asked (a list replaced since then holds other items, so its result matches nothing).
type toolTokensMsg struct {
	counts map[*exItem]int
	err    error
}

func (toolTokensMsg) explorerMsg() {}

// CountTokensCmd counts, off the UI goroutine, the tokens of the listed tools not counted
// yet (tokens.Tool, o200k_base): the tool list shows each tool's cost. nil when every tool
// is counted.
func (x *Explorer) CountTokensCmd() tea.Cmd {
	type job struct {
		it  *exItem
		raw json.RawMessage
	}
	var todo []job
	for _, it := range x.toolItems() {
		if _, ok := x.toolTokens[it]; !ok {
			todo = append(todo, job{it, it.raw}) // the command reads only the raw bytes
		}
	}
	if len(todo) == 0 {
		return nil
	}
	return func() tea.Msg {
		counts := make(map[*exItem]int, len(todo))
		for _, j := range todo {
			n, err := tokens.Tool(j.raw)
			if err != nil {
				return toolTokensMsg{err: err}
			}
			counts[j.it] = n
		}
		return toolTokensMsg{counts: counts}
	}
}

// toolItems are the items of the tools tab.
func (x *Explorer) toolItems() []*exItem {
	for _, t := range x.tabs {
		if t.kind == session.ListTools {
			return t.items
		}
	}
	return nil
}

// setToolTokens keeps the counts a command made for the tools listed now, and forgets the
// items of lists since replaced. Bounded: a map lookup per listed tool, whatever their size.
func (x *Explorer) setToolTokens(msg toolTokensMsg) {
	if msg.err != nil {
		x.c.Log.Printf("explorer: token counts: %v", msg.err)
		return
	}
	items := x.toolItems()
	kept := make(map[*exItem]int, len(items))
	for _, it := range items {
		if n, ok := msg.counts[it]; ok {
			kept[it] = n
		} else if n, ok := x.toolTokens[it]; ok {
			kept[it] = n
		}
	}
	x.toolTokens = kept
}

// tokenBadge is a tool row's context cost, once counted: "1.2k tok". An app-only tool's
// is in brackets, "(107 tok)": a host never shows that tool to the model, so it costs the
// model's context nothing (check counts it apart too).
func (x *Explorer) tokenBadge(it *exItem) []badge {
	n, ok := x.toolTokens[it]
	if !ok {
		return nil
	}
	if it.app.link.AppOnly() {
		return []badge{{"(" + compactTokens(n) + " tok)", x.c.Styles.Muted}}
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
