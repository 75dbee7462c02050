package check

import (
	"cmp"
	"encoding/json"
	"slices"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/apps"
	"github.com/mcpscope/mcpscope/protocol/tokens"
)

// DefaultTokenLimit is the context cost past which check warns: 20,000 tokens, a tenth of
// a 200,000-token context window, carried by every conversation before the user types.
const DefaultTokenLimit = 20000

// Cost is what a server's definitions cost a model's context, in tokens of Encoding.
type Cost struct {
	Encoding     string     `json:"encoding"`
	Total        int        `json:"total"`
	Tools        int        `json:"tools"`
	Prompts      int        `json:"prompts"`
	Instructions int        `json:"instructions"`
	Limit        int        `json:"limit"`
	Items        []ItemCost `json:"items"` // every tool and prompt, most expensive first
	// AppOnly is what the app-only tools (_meta.ui.visibility without "model") cost: a host
	// never shows them to the model, so they are in neither Tools nor Total.
	AppOnly int `json:"appOnly"`
}

// ItemCost is the cost of one tool or prompt.
type ItemCost struct {
	Kind    string `json:"kind"` // "tool" or "prompt"
	Name    string `json:"name"`
	Tokens  int    `json:"tokens"`
	AppOnly bool   `json:"appOnly,omitempty"` // a tool only an app may call: not in the model's context
}

// cost counts the tokens of the definitions and warns past the limit.
func (r *runner) cost() {
	d := r.run.Definitions
	c := &Cost{Encoding: tokens.Encoding, Limit: r.o.TokenLimit}
	add := func(kind string, raw json.RawMessage, count func(json.RawMessage) (int, error), appOnly bool) int {
		n, err := count(raw)
		if err != nil {
			r.note("context cost not counted: %v", err)
			return 0
		}
		var named struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(raw, &named)
		c.Items = append(c.Items, ItemCost{Kind: kind, Name: named.Name, Tokens: n, AppOnly: appOnly})
		return n
	}
	for _, t := range d.Tools {
		if l, ok := apps.ToolLinkOf(protocol.RawMeta(t)); ok && l.AppOnly() {
			c.AppOnly += add("tool", t, tokens.Tool, true)
			continue
		}
		c.Tools += add("tool", t, tokens.Tool, false)
	}
	for _, p := range d.Prompts {
		c.Prompts += add("prompt", p, tokens.Prompt, false)
	}
	c.Instructions, _ = tokens.Count(d.Instructions)
	c.Total = c.Tools + c.Prompts + c.Instructions
	slices.SortStableFunc(c.Items, func(a, b ItemCost) int { return cmp.Compare(b.Tokens, a.Tokens) })
	r.run.Cost = c
	if c.Limit > 0 && c.Total > c.Limit {
		r.addRef(protocol.NewFinding(protocol.FindContextCost,
			"the definitions cost %s tokens (%s: tools %s, prompts %s, instructions %s), over the %s-token threshold (--max-tokens)",
			tokens.Thousands(c.Total), c.Encoding, tokens.Thousands(c.Tools), tokens.Thousands(c.Prompts),
			tokens.Thousands(c.Instructions), tokens.Thousands(c.Limit)), protocol.ContentSpec(protocol.FindContextCost, "/tools", r.rev))
	}
}
