package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcpscope/mcpscope/protocol/tokens"
	"github.com/mcpscope/mcpscope/session/check"
)

// topCosts is how many of the most expensive tools and prompts the report names.
const topCosts = 10

// writeCost writes what a run's definitions cost a model's context: the total by part and
// the most expensive tools and prompts.
func writeCost(w io.Writer, c *check.Cost, paint func(style, s string) string, vis func(string) string) {
	if c == nil {
		return
	}
	total := fmt.Sprintf("%s tokens", tokens.Thousands(c.Total))
	if c.Limit > 0 && c.Total > c.Limit {
		total = paint(ansiYellow, total+fmt.Sprintf(" (over %s)", tokens.Thousands(c.Limit)))
	}
	fmt.Fprintf(w, "  context: %s of %s: tools %s · prompts %s · instructions %s\n", total, c.Encoding,
		tokens.Thousands(c.Tools), tokens.Thousands(c.Prompts), tokens.Thousands(c.Instructions))
	var parts, appOnly []string
	for _, it := range c.Items {
		if it.AppOnly {
			appOnly = append(appOnly, vis(it.Name))
			continue
		}
		if len(parts) == topCosts {
			continue
		}
		name := vis(it.Name)
		if it.Kind != "tool" {
			name = it.Kind + " " + name
		}
		parts = append(parts, fmt.Sprintf("%s %s", name, tokens.Thousands(it.Tokens)))
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "  %s %s\n", paint(ansiDim, "most expensive:"), strings.Join(parts, " · "))
	}
	if len(appOnly) > 0 {
		fmt.Fprintf(w, "  %s\n", paint(ansiDim, fmt.Sprintf("app-only tools: %s tokens, not in the model's context (%s)",
			tokens.Thousands(c.AppOnly), strings.Join(appOnly, ", "))))
	}
}
