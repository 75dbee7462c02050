package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"

	"github.com/mcpscope/mcpscope/session/auth"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
)

// reportUnchecked writes the machine-readable report of a server check could not check
// (it did not start, refused the connection, needs a login): a CI job that keeps the
// report with `if: always()` gets a well-formed file holding the failure instead of an
// empty one. JUnit has a failed case "connect" of type not-checked, SARIF a tool execution
// notification at level error with executionSuccessful false, JSON the error. The text
// report is --all's, with one row, for a server that needs a login; otherwise it writes
// nothing and the error goes to stderr as before. It returns err, so the exit code stays
// the failure's.
func (c CheckCmd) reportUnchecked(r *runner, err error) error {
	s := serverReport{Name: c.uncheckedName(r), Err: errorText(err), Login: auth.NeedsLogin(err)}
	if c.Format == "text" && !s.Login {
		return err
	}
	mask := r.flags.screenMasker(r.command)
	var werr error
	if c.Format == "text" {
		var buf bytes.Buffer
		writeServers(&buf, []serverReport{s}, colour(r.stdout))
		_, werr = r.stdout.Write([]byte(mask.String(buf.String())))
	} else if c.Format == "json" {
		var b []byte
		if b, werr = json.MarshalIndent(struct {
			Name  string   `json:"name"`
			Runs  []string `json:"runs"`
			Error string   `json:"error"`
			Login bool     `json:"needsLogin,omitempty"`
		}{s.Name, []string{}, s.Err, s.Login}, "", "  "); werr == nil {
			_, werr = fmt.Fprintf(r.stdout, "%s\n", jsonview.EscapeJSON(mask.Bytes(b)))
		}
	} else {
		if r.flags.Config != "" {
			s.Host = "--config"
			if abs, aerr := filepath.Abs(r.flags.Config); aerr == nil {
				s.Source = abs
			}
		}
		werr = c.writeCI(r.stdout, []serverReport{s}, mask)
	}
	if werr != nil {
		return errors.Join(err, fmt.Errorf("write the report: %w", werr))
	}
	return err
}

// uncheckedName names a server that could not be checked: its configured name, else its
// URL's host, else its command's program.
func (c CheckCmd) uncheckedName(r *runner) string {
	sp, err := r.flags.spec(r.command)
	switch {
	case err != nil:
	case sp.Name != "":
		return sp.Name
	case sp.URL != "":
		if u, uerr := url.Parse(sp.URL); uerr == nil && u.Host != "" {
			return u.Host
		}
	case len(sp.Command) > 0:
		return filepath.Base(sp.Command[0])
	}
	return "server"
}
