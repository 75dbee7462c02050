package cli

import (
	"fmt"
	"io"
	"strings"

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
	total := fmt.Sprintf("%s tokens", thousands(c.Total))
	if c.Limit > 0 && c.Total > c.Limit {
		total = paint(ansiYellow, total+fmt.Sprintf(" (over %s)", thousands(c.Limit)))
	}
	fmt.Fprintf(w, "  context: %s of %s: tools %s · prompts %s · instructions %s\n", total, c.Encoding,
		thousands(c.Tools), thousands(c.Prompts), thousands(c.Instructions))
	if len(c.Items) == 0 {
		return
	}
	var parts []string
	for _, it := range c.Items[:min(topCosts, len(c.Items))] {
		name := vis(it.Name)
		if it.Kind != "tool" {
			name = it.Kind + " " + name
		}
		parts = append(parts, fmt.Sprintf("%s %s", name, thousands(it.Tokens)))
	}
	fmt.Fprintf(w, "  %s %s\n", paint(ansiDim, "most expensive:"), strings.Join(parts, " · "))
}

// thousands writes n with a comma every three digits.
func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return s
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
