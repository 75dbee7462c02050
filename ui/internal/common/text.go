package common

import (
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
)

// ProgressText is a small bar with the numbers: "[███░░] 3/5 message".
func ProgressText(p *session.Progress) string {
	if p.Total <= 0 {
		t := fmt.Sprintf("%g", p.Progress)
		if p.Message != "" {
			t += " " + jsonview.VisibleLine(p.Message)
		}
		return t
	}
	const cells = 8
	done := int(float64(cells) * min(1, p.Progress/p.Total))
	t := "[" + strings.Repeat("█", done) + strings.Repeat("░", cells-done) + "] " + fmt.Sprintf("%g/%g", p.Progress, p.Total)
	if p.Message != "" {
		t += " " + jsonview.VisibleLine(p.Message)
	}
	return t
}
