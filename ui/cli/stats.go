package cli

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// StatsCmd prints a recording's traffic per method: counts, errors, latency percentiles
// and bytes each way.
type StatsCmd struct {
	File string `arg:"" help:"The recording." placeholder:"RECORDING"`
	JSON bool   `name:"json" help:"Print JSON instead of a table."`
}

// statsJSON is the --json output.
type statsJSON struct {
	File       string                   `json:"file"`
	Events     int                      `json:"events"`
	Frames     int                      `json:"frames"`
	Unreadable int                      `json:"unreadable_lines"`
	Methods    []recordings.MethodStats `json:"methods"`
	Total      recordings.MethodStats   `json:"total"`
}

// Run implements the command.
func (c StatsCmd) Run(r *runner) error {
	rd, err := recordings.Open(c.File)
	if err != nil {
		return usageError{err}
	}
	defer rd.Close()
	st, err := rd.Stats(r.ctx, nil)
	if err != nil {
		return err
	}
	out := statsJSON{File: c.File, Events: st.Events, Frames: st.Frames, Unreadable: st.Unreadable,
		Methods: st.Methods(), Total: st.Total()}
	if c.JSON {
		return r.printJSON(out)
	}
	return writeStatsTable(r.stdout, out)
}

// writeStatsTable writes the figures as a table, the busiest method first.
func writeStatsTable(w io.Writer, s statsJSON) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	width := len("method")
	for _, m := range s.Methods {
		width = max(width, ansi.StringWidth(jsonview.EscapeText(m.Method)))
	}
	fmt.Fprintln(tw, textfmt.Pad("method", width)+"\trequests\tnotifications\tresponses\terrors\tp50\tp95\tp99\tbytes out\tbytes in\t")
	row := func(m recordings.MethodStats) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t\n", textfmt.Pad(jsonview.EscapeText(m.Method), width), m.Requests, m.Notifications, m.Responses,
			m.Errors, ms(m.P50), ms(m.P95), ms(m.P99), textfmt.Size(m.BytesOut), textfmt.Size(m.BytesIn))
	}
	for _, m := range s.Methods {
		row(m)
	}
	row(s.Total)
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%s, %s", textfmt.Plural(s.Events, "event"), textfmt.Plural(s.Frames, "frame"))
	if err == nil && s.Unreadable > 0 {
		_, err = fmt.Fprintf(w, ", %s", textfmt.Plural(s.Unreadable, "unreadable line"))
	}
	if err == nil {
		_, err = fmt.Fprintln(w)
	}
	return err
}

// ms is a latency for the table: "-" when none was measured.
func ms(v float64) string {
	if v == 0 {
		return "-"
	}
	return textfmt.Duration(time.Duration(v * float64(time.Millisecond)))
}
