package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
)

// acrossCodes are the codes of the rules across servers (protocol.CheckAcrossServers):
// acrossServers puts their findings in each server's report, and the reports gather them
// again in a section of their own.
var acrossCodes = map[string]bool{protocol.FindToolShadowed: true, protocol.FindToolCrossReference: true}

// acrossItem is a finding across servers with the server it is reported on.
type acrossItem struct {
	Server   string `json:"server"`
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Pointer  string `json:"pointer,omitempty"`
}

// acrossItems are the findings across servers, server by server.
func acrossItems(reps []serverReport) []acrossItem {
	out := []acrossItem{}
	for _, s := range reps {
		if s.Report == nil || len(s.Report.Runs) == 0 {
			continue
		}
		for _, it := range s.Report.Runs[0].Items {
			if acrossCodes[it.Code] {
				out = append(out, acrossItem{Server: s.Name, Code: it.Code, Severity: it.Severity.String(),
					Message: it.Message, Pointer: it.Pointer})
			}
		}
	}
	return out
}

// writeAcross writes the text report's last section: what is wrong across servers.
func writeAcross(w io.Writer, reps []serverReport, paint func(style, s string) string, vis func(string) string) {
	fmt.Fprintf(w, "\n== across servers\n")
	items := acrossItems(reps)
	if len(items) == 0 {
		fmt.Fprintln(w, "  no tool name shared, no description naming another server's tool")
		return
	}
	style := map[string]string{"error": ansiRed, "warning": ansiYellow, "info": ansiBlue}
	for _, it := range items {
		fmt.Fprintf(w, "  %s %s %s: %s\n", paint(style[it.Severity], fmt.Sprintf("%-7s", strings.ToUpper(it.Severity))),
			paint(ansiBold, it.Code), vis(it.Server), vis(it.Message))
	}
}
