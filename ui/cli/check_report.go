package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/check"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// ANSI styles of the report, used only on a terminal.
const (
	ansiRed    = "\x1b[31;1m"
	ansiYellow = "\x1b[33;1m"
	ansiBlue   = "\x1b[36m"
	ansiDim    = "\x1b[2m"
	ansiBold   = "\x1b[1m"
	ansiReset  = "\x1b[0m"
)

// writeReport writes check's report for a person: per run a header, the findings with
// their spec section and frames, latency per method and what was not exercised.
func writeReport(w io.Writer, rep *check.Report, colour bool) {
	paint := func(style, s string) string {
		if !colour {
			return s
		}
		return style + s + ansiReset
	}
	// vis shows what the server sent (names, messages, excerpts) with every character a
	// terminal must not get raw escaped, as every view shows it; set apart in reverse video
	// on a terminal.
	vis := jsonview.EscapeText
	if colour {
		vis = jsonview.Visible
	}
	for i, run := range rep.Runs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		d := run.Definitions
		name := vis(strings.TrimSpace(d.ServerInfo.Name + " " + d.ServerInfo.Version))
		if run.Err != "" {
			fmt.Fprintf(w, "%s %s: %s\n", paint(ansiBold, "check"), run.Revision, paint(ansiRed, vis(run.Err)))
			continue
		}
		era := "stateful"
		if run.Stateless {
			era = "stateless"
		}
		fmt.Fprintf(w, "%s %s — %s (%s) over %s, handshake in %s\n", paint(ansiBold, "check"), name, run.Revision, era,
			run.Transport, run.Startup.Round(time.Millisecond))
		fmt.Fprintf(w, "  %s · %s · %s · %s · %s · stderr %s\n", textfmt.Plural(len(d.Tools), "tool"),
			textfmt.Plural(len(d.Prompts), "prompt"), textfmt.Plural(len(d.Resources), "resource"),
			textfmt.Plural(len(d.Templates), "template"), textfmt.Plural(len(run.Calls), "call"), textfmt.Plural(run.StderrLines, "line"))
		if a := run.Apps; a != nil {
			fmt.Fprintf(w, "  %s\n", vis(appsLine(a, run.AppsDeclared)))
		}
		if c := run.Card; c != nil {
			fmt.Fprintf(w, "  %s\n", vis(cardLine(c)))
		}
		writeCost(w, run.Cost, paint, vis)
		for _, it := range run.Items {
			sev := strings.ToUpper(it.Severity.String())
			style := map[protocol.Severity]string{protocol.SevError: ansiRed, protocol.SevWarning: ansiYellow, protocol.SevInfo: ansiBlue}[it.Severity]
			fmt.Fprintf(w, "  %s %s %s\n", paint(style, fmt.Sprintf("%-7s", sev)), paint(ansiBold, it.Code), vis(it.Message))
			if it.Spec.Page != "" {
				fmt.Fprintf(w, "          %s  %s\n", it.Spec, paint(ansiDim, it.Spec.URL()))
			}
			if len(it.Frames) > 0 {
				seqs := make([]string, len(it.Frames))
				for j, s := range it.Frames {
					seqs[j] = fmt.Sprintf("#%d", s)
				}
				fmt.Fprintf(w, "          events %s: %s\n", strings.Join(seqs, " "), paint(ansiDim, vis(it.Excerpt)))
			}
		}
		if len(run.Timing) > 0 {
			var parts []string
			for _, t := range run.Timing {
				p := fmt.Sprintf("%s %d× %s", vis(t.Method), t.Count, t.Median.Round(time.Millisecond/10))
				if t.Count > 1 {
					p += fmt.Sprintf(" (max %s)", t.Max.Round(time.Millisecond/10))
				}
				if t.Max > t.Limit {
					p = paint(ansiYellow, p)
				}
				parts = append(parts, p)
			}
			fmt.Fprintf(w, "  timing: %s\n", strings.Join(parts, " · "))
		}
		for _, n := range run.Notes {
			fmt.Fprintf(w, "  %s\n", paint(ansiDim, "note: "+vis(n)))
		}
		fmt.Fprintf(w, "  %s\n", run.String())
	}
	e, wn, in := rep.Count(protocol.SevError), rep.Count(protocol.SevWarning), rep.Count(protocol.SevInfo)
	summary := fmt.Sprintf("%d errors, %d warnings, %d info", e, wn, in)
	switch {
	case e > 0:
		summary = paint(ansiRed, summary)
	case wn > 0:
		summary = paint(ansiYellow, summary)
	}
	fmt.Fprintf(w, "result: %s\n", summary)
}

// cardLine sums up what check saw of the server card.
func cardLine(c *check.CardCheck) string {
	if !c.Found {
		return fmt.Sprintf("server card: none at the %d places asked (mcpscope card URL shows each)", len(c.Locations))
	}
	valid := "valid"
	if !c.Valid {
		valid = textfmt.Plural(len(c.Problems), "schema problem")
	}
	differ := 0
	for _, m := range c.Comparison {
		if !m.OK {
			differ++
		}
	}
	return fmt.Sprintf("server card: at %s, %s; %d of %d compared values agree with the server", strings.Join(c.Where, ", "), valid,
		len(c.Comparison)-differ, len(c.Comparison))
}
