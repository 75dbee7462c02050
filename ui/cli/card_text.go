package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/mcpscope/mcpscope/protocol"
	cardspec "github.com/mcpscope/mcpscope/protocol/card"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// cardText is card's report as text. Everything a server wrote is escaped.
func cardText(rep *cardReport) string {
	var b strings.Builder
	esc := jsonview.EscapeText
	fmt.Fprintf(&b, "Server card of %s\n\n", esc(rep.Target))
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  location\tstatus\tcontent type\tsize\tanswer")
	for _, a := range rep.Locations {
		label := a.Location.Label
		if !a.Location.Normative {
			label += " (draft)"
		}
		status := "-"
		if a.Status != 0 {
			status = fmt.Sprint(a.Status)
		}
		answer := a.Answer
		if a.Err != "" {
			answer += ": " + a.Err
		}
		size := "-"
		if a.Status != 0 {
			size = textfmt.Bytes(a.Size)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", esc(label), status, esc(orDash(a.ContentType)), size, esc(answer))
	}
	tw.Flush()
	b.WriteString("\n  (draft): a place of an earlier draft; the extension reserves <endpoint>/server-card and the AI Catalog at /.well-known/ai-catalog.json\n")
	for i, c := range rep.Cards {
		fmt.Fprintf(&b, "\nCard %d, at %s\n", i+1, esc(strings.Join(c.Where, ", ")))
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		row := func(k, v string) {
			if v != "" {
				fmt.Fprintf(tw, "  %s\t%s\n", k, esc(v))
			}
		}
		row("name", c.Card.Name)
		row("version", c.Card.Version)
		row("title", c.Card.Title)
		row("description", c.Card.Description)
		row("website", c.Card.WebsiteURL)
		for _, rm := range c.Card.Remotes {
			line := rm.Type + " " + rm.URL
			if len(rm.Versions) > 0 {
				line += "  versions " + strings.Join(rm.Versions, ", ")
			}
			for _, h := range rm.Headers {
				if h.Required {
					line += "  header " + h.Name + " (required)"
				}
			}
			row("remote", line)
		}
		tw.Flush()
		if c.Valid() {
			fmt.Fprintf(&b, "  schema: valid (server-card %s, %s at %s, %s)\n", cardspec.SchemaVersion, cardspec.SchemaRepo, cardspec.SchemaCommit[:7], cardspec.SchemaDate)
		} else {
			fmt.Fprintf(&b, "  schema: %d problem(s) against server-card %s (%s at %s)\n", len(c.Problems), cardspec.SchemaVersion, cardspec.SchemaRepo, cardspec.SchemaCommit[:7])
			for _, p := range c.Problems {
				fmt.Fprintf(&b, "    %s\n", esc(p.String()))
			}
		}
	}
	if l := rep.Live; l != nil {
		fmt.Fprintf(&b, "\nCompared with the live server at %s (%s, %s)\n", esc(l.URL), l.Transport, esc(l.Revision))
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  \tfield\tcard\tlive")
		for _, m := range rep.Compared {
			mark := "✓"
			if !m.OK {
				mark = "✗"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", mark, esc(m.Field), esc(orDash(m.Card)), esc(orDash(m.Live)))
		}
		tw.Flush()
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(&b, "\n%s\n", esc(n))
	}
	if len(rep.Findings) > 0 {
		b.WriteString("\nFindings\n")
		for _, f := range rep.Findings {
			fmt.Fprintf(&b, "  %s %s: %s\n", f.Severity, f.Code, esc(f.Message))
			if ref, ok := protocol.CardSpecRef(f.Code); ok {
				fmt.Fprintf(&b, "    %s\n", ref.URL())
			}
		}
	}
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
