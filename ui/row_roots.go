package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// rootsAnswerBytes bounds the roots/list answer a row reads for its summary.
const rootsAnswerBytes = 16 << 10

// rootsAnswerText notes on the row of mcpscope's answer to roots/list what it answered:
// "answered [] (no roots offered)" or "answered 2 roots: project file:///srv/project, …".
// "" for any other row.
func rootsAnswerText(e *traffic.Entry) string {
	f := e.Ev.Frame
	if f.Kind != protocol.KindResult || e.Ev.Dir != protocol.ClientToServer || traffic.EntryMethod(e) != methodRoots {
		return ""
	}
	if len(f.Result) > rootsAnswerBytes {
		return "answered " + fmt.Sprint(len(f.Result)) + " bytes of roots"
	}
	var res struct {
		Roots []struct {
			URI  string `json:"uri"`
			Name string `json:"name"`
		} `json:"roots"`
	}
	if json.Unmarshal(f.Result, &res) != nil {
		return ""
	}
	if len(res.Roots) == 0 {
		return "answered [] (no roots offered)"
	}
	parts := make([]string, 0, min(3, len(res.Roots)))
	for i, r := range res.Roots {
		if i == 3 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, strings.TrimSpace(r.Name+" "+r.URI))
	}
	noun := "roots"
	if len(res.Roots) == 1 {
		noun = "root"
	}
	return fmt.Sprintf("answered %d %s: %s", len(res.Roots), noun, strings.Join(parts, ", "))
}
