package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/check"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
)

// CheckCmd exercises the server and reports its findings.
type CheckCmd struct {
	AllEras      bool          `name:"all-eras" help:"Also check the stateful era when a 2026-07-28 server lists earlier revisions."`
	Read         int           `help:"How many resources (and resource templates) to read." default:"10"`
	Call         []string      `sep:"none" help:"Call this tool too (repeatable); by default only tools annotated readOnlyHint are called." placeholder:"TOOL"`
	Calls        string        `help:"Also make the tools/call requests of this recording, with their arguments." placeholder:"FILE" type:"existingfile"`
	Safe         bool          `name:"read-only-calls" help:"Call the tools annotated readOnlyHint (with the simplest arguments their schema allows)." default:"true" negatable:""`
	CallWait     time.Duration `name:"call-wait" help:"Cancel a call still running after this long (the cancellation check)." default:"2s"`
	Slow         []string      `help:"Latency thresholds: DURATION for every method, METHOD=DURATION for one, startup=DURATION for the handshake (repeatable; defaults 2s and startup=5s)." placeholder:"[METHOD=]DURATION"`
	StrictTiming bool          `name:"strict-timing" help:"Count the timing findings (server.startup, session.slow) as warnings, which --fail-on warning fails on; by default they are notes (info), as a busy machine makes any server slow."`
	FailOn       string        `name:"fail-on" help:"Exit with code 8 when a finding is at least this severe: warning, error or none." enum:"warning,error,none" default:"error"`
	JSON         bool          `name:"json" help:"Print the report as JSON (--format json)."`
	Format       string        `help:"Report format: text, json, sarif (SARIF 2.1.0, for code scanning) or junit (JUnit XML, for CI test reports)." enum:"text,json,sarif,junit" default:"text"`
	All          bool          `help:"Check every server of every host config file mcpscope finds (Claude Desktop, Cursor, VS Code, Claude Code; or of --config FILE), a few at once, and the tools they share. A server that needs a login is reported, not logged into, unless --auth."`
	Parallel     int           `help:"With --all: how many servers are checked at once." default:"4"`
	MaxTokens    int           `name:"max-tokens" help:"Warn when the definitions (tools, prompts, instructions) cost a model more tokens than this (o200k_base); 0 never warns." default:"20000"`
	Pin          string        `help:"Pin the server's definitions (tools, prompts, resources, templates, instructions, capabilities) in this file, a hash each; when it exists, compare with it instead and fail (exit code 1) when any changed, showing how; exit code 9 when the definitions could not be read whole." placeholder:"FILE" type:"path"`
	Repin        bool          `help:"With --pin: write the pin file again from what the server offers now (after checking the changes)."`
}

// Run implements the command.
func (c CheckCmd) Run(r *runner) error {
	r.ownFindings = true // the report lists them
	o, err := c.options()
	if err != nil {
		return usageError{err}
	}
	o.Protocol = r.flags.Protocol
	if c.Repin && c.Pin == "" {
		return usageError{fmt.Errorf("--repin needs --pin FILE")}
	}
	o.AppsContrast = r.appsContrastSession
	if strings.HasPrefix(r.flags.URL, "http://") || strings.HasPrefix(r.flags.URL, "https://") {
		o.Card, o.CardSent = r.flags.URL, sentHeaders(r.flags)
	}
	if c.JSON {
		if c.Format != "text" && c.Format != "json" {
			return usageError{fmt.Errorf("--json and --format %s: choose one", c.Format)}
		}
		c.Format = "json"
	}
	if c.All {
		return c.runAll(r, o)
	}
	rep, err := check.Check(r.ctx, r.checkSession, o)
	if err != nil {
		return c.reportUnchecked(r, err)
	}
	var pinned *pinOutcome
	if c.Pin != "" {
		if pinned, err = pinDefinitions(c.Pin, c.Repin, rep); err != nil {
			return err
		}
	}
	return c.report(r, rep, pinned)
}

// options turns the flags into check.Options.
func (c CheckCmd) options() (check.Options, error) {
	o := check.Options{AllEras: c.AllEras, Read: c.Read, NoSafeCalls: !c.Safe, CallWait: c.CallWait,
		Slow: map[string]time.Duration{}, TokenLimit: c.MaxTokens, StrictTiming: c.StrictTiming}
	if c.MaxTokens <= 0 {
		o.TokenLimit = -1 // never
	}
	for _, name := range c.Call {
		o.Calls = append(o.Calls, check.ToolCall{Name: name})
	}
	if c.Calls != "" {
		calls, err := recordedCalls(c.Calls)
		if err != nil {
			return o, err
		}
		o.Calls = append(o.Calls, calls...)
	}
	for _, s := range c.Slow {
		method, dur, found := strings.Cut(s, "=")
		if !found {
			method, dur = "", s
		}
		d, err := time.ParseDuration(dur)
		if err != nil || d <= 0 {
			return o, fmt.Errorf("--slow %q: want DURATION or METHOD=DURATION", s)
		}
		o.Slow[method] = d
	}
	return o, nil
}

// recordedCalls reads the tools/call requests of a recording.
func recordedCalls(path string) ([]check.ToolCall, error) {
	rd, err := recordings.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--calls: %w", err)
	}
	defer rd.Close()
	entries, _ := rd.Events()
	var out []check.ToolCall
	seen := map[string]bool{}
	for _, e := range entries {
		ev := e.Event
		if ev.Kind != session.EvFrame || ev.Dir != protocol.ClientToServer || ev.Frame == nil || ev.Frame.Method != "tools/call" {
			continue
		}
		var p struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if json.Unmarshal(ev.Frame.Params, &p) != nil || p.Name == "" {
			continue
		}
		if p.Arguments == nil {
			p.Arguments = json.RawMessage(`{}`)
		}
		key := p.Name + "\x00" + string(p.Arguments)
		if !seen[key] {
			seen[key] = true
			out = append(out, check.ToolCall{Name: p.Name, Arguments: p.Arguments})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--calls %s: the recording has no tools/call request", path)
	}
	return out, nil
}

// checkSession makes a session for one run of check: the first negotiates what --protocol
// says, later ones the revision check asks for; protocol auto probes afresh.
func (r *runner) checkSession(proto string) (*session.Session, func(), error) {
	return r.newSession(func(cfg *session.Config) {
		cfg.Protocol = proto
		if proto == "auto" {
			cfg.Reprobe = true
		} else {
			cfg.EraCache = nil
		}
	})
}

// ExitFindings is check's exit code when a finding reaches --fail-on.
const ExitFindings = 8

// findingsError is check's failure: the report was printed, the exit code says it failed.
type findingsError struct{ n int }

func (e findingsError) Error() string        { return fmt.Sprintf("%d findings at or above --fail-on", e.n) }
func (e findingsError) ExitCode() int        { return ExitFindings }
func (e findingsError) Is(target error) bool { return target == errReported }

// report prints the report and returns the exit status --fail-on asks for.
func (c CheckCmd) report(r *runner, rep *check.Report, pinned *pinOutcome) error {
	mask := r.flags.screenMasker(r.command)
	if c.Format == "sarif" || c.Format == "junit" {
		if err := c.writeCI(r.stdout, []serverReport{c.oneServer(r, rep)}, mask); err != nil {
			return err
		}
	} else if c.Format == "json" {
		b, err := json.MarshalIndent(struct {
			*check.Report
			Pin *pinOutcome `json:"pin,omitempty"`
		}{rep, pinned}, "", "  ")
		if err != nil {
			return err
		}
		// Escaped as JSON \u escapes: the same strings, but no character a terminal or a
		// log viewer must not get raw (a tool name's OSC 52, a description's zero-width space).
		if _, err := fmt.Fprintf(r.stdout, "%s\n", jsonview.EscapeJSON(mask.Bytes(b))); err != nil {
			return err
		}
	} else {
		var buf bytes.Buffer
		writeReport(&buf, rep, colour(r.stdout))
		if pinned != nil {
			pinned.writeText(&buf)
		}
		if _, err := r.stdout.Write([]byte(mask.String(buf.String()))); err != nil {
			return err
		}
	}
	if pinned.changed() {
		return pinChanged{len(pinned.Report.Changes)}
	}
	threshold := c.threshold()
	if threshold == 0 {
		return nil
	}
	if n := reportFailures(rep, threshold); n > 0 {
		return findingsError{n}
	}
	return nil
}

// colour reports whether w is a terminal that takes colour: not when NO_COLOR is set.
func colour(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
