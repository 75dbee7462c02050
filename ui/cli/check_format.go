package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mcpscope/mcpscope/session/check"
	"github.com/mcpscope/mcpscope/session/secret"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
)

// threshold is --fail-on as a rank: 1 warning, 2 error, 0 none.
func (c CheckCmd) threshold() int {
	return map[string]int{"warning": 1, "error": 2}[c.FailOn]
}

// runAll is check --all: every configured server, one table, then the details.
func (c CheckCmd) runAll(r *runner, o check.Options) error {
	switch {
	case c.Pin != "":
		return usageError{fmt.Errorf("--pin follows one server; it cannot be combined with --all")}
	case len(r.command) > 0 || r.flags.URL != "" || r.flags.Server != "":
		return usageError{fmt.Errorf("--all checks the configured servers; give no server (--config FILE selects the file)")}
	case r.flags.Record != "" || r.flags.Trace:
		return usageError{fmt.Errorf("--record and --trace follow one server; they cannot be combined with --all")}
	}
	reps, mask, err := c.checkAll(r, o)
	if err != nil {
		return err
	}
	switch c.Format {
	case "sarif", "junit":
		err = c.writeCI(r.stdout, reps, mask)
	case "json":
		var b []byte
		if b, err = json.MarshalIndent(struct {
			Servers []serverReport `json:"servers"`
			Across  []acrossItem   `json:"acrossServers"`
		}{reps, acrossItems(reps)}, "", "  "); err == nil {
			_, err = fmt.Fprintf(r.stdout, "%s\n", jsonview.EscapeJSON(mask.Bytes(b)))
		}
	default:
		var buf bytes.Buffer
		c.writeAllText(&buf, reps, colour(r.stdout))
		_, err = r.stdout.Write([]byte(mask.String(buf.String())))
	}
	if err != nil {
		return err
	}
	if t := c.threshold(); t > 0 {
		if n := failures(reps, t); n > 0 {
			return findingsError{n}
		}
	}
	return nil
}

// writeAllText writes --all's text report: the table, each server's report, then what is
// wrong across servers.
func (c CheckCmd) writeAllText(w io.Writer, reps []serverReport, colour bool) {
	writeServers(w, reps, colour)
	paint := func(style, s string) string {
		if !colour {
			return s
		}
		return style + s + ansiReset
	}
	writeAcross(w, reps, paint, jsonview.EscapeText)
}

// writeServers writes the table of servers, then each server's report or what kept it
// from being checked.
func writeServers(w io.Writer, reps []serverReport, colour bool) {
	home, _ := os.UserHomeDir()
	vis := jsonview.EscapeText
	writeAllTable(w, reps, home, vis)
	for _, s := range reps {
		if s.Host != "" {
			fmt.Fprintf(w, "\n== %s (%s, %s)\n", vis(s.Name), s.Host, vis(s.Source))
		} else {
			fmt.Fprintf(w, "\n== %s\n", vis(s.Name))
		}
		if s.Report == nil {
			fmt.Fprintf(w, "  %s\n", vis(s.Err))
			continue
		}
		writeReport(w, s.Report, colour)
	}
}

// oneServer is the report of the one server check was given, for the CI formats.
func (c CheckCmd) oneServer(r *runner, rep *check.Report) serverReport {
	s := serverReport{Report: rep}
	if r.flags.Config != "" {
		s.Host = "--config"
		if abs, err := filepath.Abs(r.flags.Config); err == nil {
			s.Source = abs
		}
	}
	if sp, err := r.flags.spec(r.command); err == nil && sp.Name != "" {
		s.Name = sp.Name
	}
	if s.Name == "" && len(rep.Runs) > 0 {
		s.Name = rep.Runs[0].Definitions.ServerInfo.Name
	}
	return s
}

// writeCI writes the SARIF or JUnit report, masked.
func (c CheckCmd) writeCI(w io.Writer, reps []serverReport, mask *secret.Masker) error {
	var buf bytes.Buffer
	var err error
	if c.Format == "sarif" {
		err = writeSARIF(&buf, reps)
	} else {
		err = writeJUnit(&buf, reps, c.threshold())
	}
	if err != nil {
		return err
	}
	_, err = w.Write(mask.Bytes(buf.Bytes()))
	return err
}
