package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/auth"
	"github.com/mcpscope/mcpscope/session/check"
	"github.com/mcpscope/mcpscope/session/secret"
)

// serverReport is the check of one server, as the reports of every format take it.
type serverReport struct {
	Name   string        `json:"name"`             // the configured name, or the server's own
	Host   string        `json:"host,omitempty"`   // the host whose config file listed it
	Source string        `json:"source,omitempty"` // that config file
	Line   int           `json:"line,omitempty"`   // where the server's entry starts in it
	Report *check.Report `json:"report,omitempty"`
	Err    string        `json:"error,omitempty"` // why it could not be checked
	Login  bool          `json:"needsLogin,omitempty"`
}

// era is the report's first run's era, for the table.
func (s serverReport) era() string {
	if s.Report == nil || len(s.Report.Runs) == 0 {
		return "-"
	}
	run := s.Report.Runs[0]
	if run.Err != "" {
		return "-"
	}
	if run.Stateless {
		return "stateless"
	}
	return "stateful"
}

// configuredServers are the servers --all checks: those of --config FILE, else of every
// host config file found in its usual place (the interactive view's server picker's list).
func (r *runner) configuredServers() ([]session.ConfiguredServer, []session.ConfigSource, map[string]error, error) {
	cwd, _ := os.Getwd()
	places := session.DefaultHostPlaces()
	if r.flags.Config != "" {
		abs, err := filepath.Abs(r.flags.Config)
		if err != nil {
			abs = r.flags.Config
		}
		places = []session.ConfigSource{{Host: "--config", Path: abs}}
	}
	found, errs := session.ListServers(places, cwd)
	if r.flags.Config != "" {
		if err := errs[places[0].Path]; err != nil {
			return nil, places, errs, usageError{err}
		}
	}
	return found, places, errs, nil
}

// allSpec is a configured server's selection for --all: its own command or URL, the
// session flags, and authorization only from a stored token unless --auth.
func (r *runner) allSpec(cs session.ConfiguredServer) (session.ServerSpec, error) {
	f := r.flags
	sp := cs.Spec
	sp.MaxLine, sp.Grace, sp.MaxRedirects = f.MaxFrame, f.Grace, f.MaxRedirects
	if f.MaxRedirects <= 0 {
		sp.MaxRedirects = -1
	}
	a := AuthFlags{NoAuthPrompt: !f.Auth, NoBrowser: f.NoBrowser, CallbackPort: f.CallbackPort, TokenStore: f.TokenStore}
	if a.TokenStore == "" {
		a.TokenStore = "auto"
	}
	if err := a.apply(&sp); err != nil {
		return sp, err
	}
	return sp, sp.Validate()
}

// checkAll checks every configured server, parallel at a time, and adds the findings
// across servers.
func (c CheckCmd) checkAll(r *runner, o check.Options) ([]serverReport, *secret.Masker, error) {
	found, places, errs, err := r.configuredServers()
	if err != nil {
		return nil, nil, err
	}
	for path, err := range errs {
		fmt.Fprintf(r.stderr, "mcpscope: %s: %v\n", path, err)
	}
	if len(found) == 0 {
		var looked []string
		for _, p := range places {
			looked = append(looked, p.Path)
		}
		return nil, nil, usageError{fmt.Errorf("--all: no configured server found; looked in %s", strings.Join(looked, ", "))}
	}
	var secrets []string
	out := make([]serverReport, len(found))
	sem := make(chan struct{}, max(1, c.Parallel))
	var wg sync.WaitGroup
	for i, cs := range found {
		out[i] = serverReport{Name: cs.Name, Host: cs.Source.Host, Source: cs.Source.Path, Line: cs.Line}
		sp, err := r.allSpec(cs)
		secrets = append(secrets, specSecrets(sp)...)
		if err != nil {
			out[i].Err = err.Error()
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			rep, err := check.Check(r.ctx, r.allSession(sp), o)
			switch {
			case auth.NeedsLogin(err):
				out[i].Login = true
				out[i].Err = fmt.Sprintf("needs a login: run mcpscope auth login --config %s --server %s, or check --all --auth", cs.Source.Path, cs.Name)
			case err != nil:
				out[i].Err = errorText(err) // an authorization failure first, with its step
			default:
				out[i].Report = rep
			}
		}()
	}
	wg.Wait()
	acrossServers(out)
	return out, secret.New(secrets, false), nil
}

// allSession makes the sessions of one server's check under --all: no --trace or --record
// (they follow one server), the era probed afresh.
func (r *runner) allSession(sp session.ServerSpec) check.NewSession {
	return func(proto string) (*session.Session, func(), error) {
		cfg, err := r.flags.sessionConfig()
		if err != nil {
			return nil, nil, err
		}
		cfg.Protocol = proto
		tr, err := sp.NewTransport()
		if err != nil {
			return nil, nil, err
		}
		cfg.Transport = tr
		s := session.New(cfg)
		return s, func() { _ = s.Close() }, nil
	}
}

// acrossServers adds the findings across servers (shared tool names, descriptions naming
// another server's tools) to the first run of the server they are reported on.
func acrossServers(reps []serverReport) {
	var in []protocol.ServerTools
	index := map[string]int{}
	for i, s := range reps {
		if s.Report == nil || len(s.Report.Runs) == 0 {
			continue
		}
		index[s.Name] = i
		in = append(in, protocol.ServerTools{Server: s.Name, Tools: s.Report.Runs[0].Definitions.Tools})
	}
	for _, f := range protocol.CheckAcrossServers(in) {
		run := &reps[index[f.Server]].Report.Runs[0]
		run.Items = append(run.Items, check.Item{Code: f.Code, Severity: f.Severity, Message: f.Message,
			Pointer: f.Pointer, Spec: protocol.ContentSpec(f.Code, f.Pointer, run.Revision)})
	}
}

// worst is a server's most severe finding, "code (severity)", or what kept it from being
// checked.
func worst(s serverReport) string {
	if s.Login {
		return "needs a login"
	}
	if s.Err != "" {
		return "not checked"
	}
	var best *check.Item
	for _, run := range s.Report.Runs {
		if run.Err != "" {
			return "run failed"
		}
		for i, it := range run.Items {
			if best == nil || check.Rank(it.Severity) > check.Rank(best.Severity) {
				best = &run.Items[i]
			}
		}
	}
	if best == nil {
		return "-"
	}
	return best.Code + " (" + best.Severity.String() + ")"
}

// count is how many findings of sev a server has.
func (s serverReport) count(sev protocol.Severity) int {
	if s.Report == nil {
		return 0
	}
	return s.Report.Count(sev)
}

// tools is how many tools the server's first run listed.
func (s serverReport) tools() string {
	if s.Report == nil || len(s.Report.Runs) == 0 {
		return "-"
	}
	return fmt.Sprint(len(s.Report.Runs[0].Definitions.Tools))
}

// writeAllTable writes the one table of --all: a row per server.
func writeAllTable(w io.Writer, reps []serverReport, home string, vis func(string) string) {
	rows := [][]string{{"SERVER", "SOURCE", "ERA", "TOOLS", "ERRORS", "WARNINGS", "WORST"}}
	for _, s := range reps {
		src := s.Source
		if home != "" && strings.HasPrefix(src, home+string(filepath.Separator)) {
			src = "~" + src[len(home):]
		}
		rows = append(rows, []string{vis(s.Name), vis(src), s.era(), s.tools(), fmt.Sprint(s.count(protocol.SevError)),
			fmt.Sprint(s.count(protocol.SevWarning)), worst(s)})
	}
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, cell := range row {
			widths[i] = max(widths[i], len([]rune(cell)))
		}
	}
	for _, row := range rows {
		var b strings.Builder
		for i, cell := range row {
			if i == len(row)-1 {
				b.WriteString(cell)
				break
			}
			b.WriteString(cell + strings.Repeat(" ", widths[i]-len([]rune(cell))+2))
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// failures counts what --fail-on fails on across servers: findings at or above the
// threshold, runs that stopped and servers that could not be checked (not those that only
// need a login).
func failures(reps []serverReport, threshold int) int {
	n := 0
	for _, s := range reps {
		if s.Err != "" && !s.Login {
			n++
		}
		if s.Report != nil {
			n += reportFailures(s.Report, threshold)
		}
	}
	return n
}

// reportFailures counts one report's findings at or above threshold and its stopped runs.
func reportFailures(rep *check.Report, threshold int) int {
	n := 0
	for _, run := range rep.Runs {
		for _, it := range run.Items {
			if check.Rank(it.Severity) >= threshold {
				n++
			}
		}
		if run.Err != "" {
			n++
		}
	}
	return n
}
