package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/recordings/pin"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/ui"
)

// OpenCmd is the interactive inspector, the default command: on a live server, or, given a
// recording, over that recording read-only.
type OpenCmd struct {
	File          string `arg:"" optional:"" help:"A recording to browse read-only instead of a live server." placeholder:"RECORDING"`
	Debug         string `help:"Write a debug log to this file while the inspector runs." type:"path" placeholder:"FILE"`
	History       int    `help:"How many timeline rows to keep in memory; older ones stay in the recording (or are dropped, and counted, with --no-record)." default:"200000"`
	HistoryBounds `embed:""`
	NoRecord      bool   `help:"Do not record the session (by default every session is recorded in the per-user recordings directory)."`
	Keep          int    `help:"How many recordings the per-user recordings directory keeps; older ones are deleted at start." default:"50"`
	KeepSize      string `help:"How much the per-user recordings directory keeps in total (e.g. 1GiB, 500MB); older recordings are deleted at start." default:"1GiB" placeholder:"SIZE"`
	CSP           string `name:"csp" help:"The Content-Security-Policy of an MCP App's view that A hosts: strict (the spec's, from the resource's declaration) or reference (the ext-apps reference host's: eval, blob: and data: scripts, workers)." enum:"strict,reference" default:"strict"`
	Pin           string `help:"A pin file (made with check --pin): the explorer marks the tools, prompts, resources and templates that changed since, with what changed in each one's detail." type:"existingfile" placeholder:"FILE"`
}

// pinOption loads --pin into the view's options.
func (c OpenCmd) pinOption(opts *ui.Options) error {
	if c.Pin == "" {
		return nil
	}
	set, err := pin.Load(c.Pin)
	if err != nil {
		return usageError{err}
	}
	opts.Pin, opts.PinName = set, c.Pin
	return nil
}

// Run implements the command.
func (c OpenCmd) Run(r *runner) error {
	if c.File != "" {
		if err := r.flags.noFaults("a recording opened read-only"); err != nil {
			return err
		}
		return c.openRecording(r)
	}
	list, first, err := r.flags.serverList(r.command)
	if err != nil {
		return err
	}
	var sp session.ServerSpec
	if first != nil {
		sp = *first
	}
	if sp.Auth != nil {
		// The view owns the terminal: the authorization URL is in the session's auth
		// status (Session.Auth), not printed, and nothing is read from stdin; the person at
		// it logs in.
		sp.Auth.Out, sp.Auth.In, sp.Auth.Unattended = nil, nil, false
	}
	cfg, err := r.flags.sessionConfig()
	if err != nil {
		return err
	}
	// The person at the terminal answers what the server asks; roots start from --root.
	var roots []session.Root
	if hl, ok := cfg.Responder.(*session.Headless); ok {
		roots = hl.Roots
	}
	asker := ui.NewAsker(roots)
	cfg.Responder = asker
	rules, seed, err := r.faultSetup()
	if err != nil {
		return err
	}
	bps := fault.NewBreakpoints()
	// sessionOn makes a session on sp; rev, when not empty, forces the protocol revision
	// (the server page's era key).
	sessionOn := func(sp session.ServerSpec, rev string) (*session.Session, error) {
		tr, err := sp.NewTransport()
		if err != nil {
			return nil, err
		}
		c := cfg
		c.Transport = fault.WrapBreaking(tr, fault.NewEngine(rules, seed), bps)
		// The roots editor's roots count as given: a restart after adding one declares
		// the capability, one after removing the last does not.
		declare := !r.flags.NoRoots && len(asker.Roots()) > 0
		c.Caps.Roots, c.Caps.RootsListChanged = declare, declare
		r.flags.eraCache(sp, &c)
		if rev != "" {
			c.Protocol = rev
		}
		return session.New(c), nil
	}
	list.NewSession = func(cs session.ConfiguredServer, rev string) (*session.Session, error) {
		sp, err := r.flags.pickedSpec(cs, first, list)
		if err != nil {
			return nil, err
		}
		return sessionOn(sp, rev)
	}
	name := "stdio"
	if sp.URL != "" {
		name = "http"
	}
	h, o := r.flags.recordingSetup(sp)
	o.Secrets = append(o.Secrets, pickerSecrets(list)...)
	opts := ui.Options{TransportName: name, Target: sp.Describe(), HistoryLimit: c.History,
		RecordHeader: h, RecordOptions: o, Asker: asker, Servers: list, Server: r.flags.serverArgs(r.command, sp), Breakpoints: bps, AppCSP: c.CSP}
	list.ArgsFor = func(cs session.ConfiguredServer) ui.ServerArgs { return r.flags.pickedArgs(r.command, cs, first, list) }
	if first != nil {
		opts.NewSession = func() (*session.Session, error) { return sessionOn(sp, "") }
		opts.NewSessionIn = func(rev string) (*session.Session, error) { return sessionOn(sp, rev) }
	} else {
		opts.Target, opts.TransportName = list.Looked[0].Path, ""
		if len(r.flags.cardPick) > 0 {
			opts.Target = r.flags.URL // the host whose card named the remotes offered
		}
		h.Server = opts.Target
		opts.RecordHeader = h
	}
	if err := c.HistoryBounds.apply(&opts); err != nil {
		return err
	}
	if dir, err := recordings.DefaultRecordDir(); err == nil {
		// Beside the recordings: the user's state directory, mcpscope/form-args.json.
		opts.ArgsFile = filepath.Join(filepath.Dir(dir), "form-args.json")
	}
	if err := c.pinOption(&opts); err != nil {
		return err
	}
	if opts.Recorder, err = c.recorder(r, h, o); err != nil {
		return err
	}
	err = ui.Run(r.ctx, opts, c.Debug)
	if opts.Recorder != nil {
		// Said after the view has left the alternate screen, so it stays in the terminal.
		fmt.Fprintf(r.stderr, "mcpscope: recorded to %s\n", opts.Recorder.Path)
	}
	return err
}

// recorder starts the session's recording: --record FILE, else a new file in the per-user
// recordings directory (pruned to --keep and --keep-size first), unless --no-record.
func (c OpenCmd) recorder(r *runner, h recordings.Header, o recordings.Options) (*ui.Recorder, error) {
	switch {
	case c.NoRecord && r.flags.Record != "":
		return nil, usageError{fmt.Errorf("--record and --no-record: choose one")}
	case c.NoRecord:
		return nil, nil
	case r.flags.Record != "":
		w, err := recordings.Create(r.flags.Record, h, o)
		if err != nil {
			return nil, usageError{err}
		}
		return ui.NewRecorder(r.flags.Record, w), nil
	}
	keepSize, err := parseSize(c.KeepSize)
	if err != nil {
		return nil, usageError{fmt.Errorf("--keep-size: %w", err)}
	}
	dir, err := recordings.DefaultRecordDir()
	if err != nil {
		return nil, fmt.Errorf("%w (run with --no-record, or --record FILE)", err)
	}
	w, path, err := recordings.CreateIn(dir, h, o)
	if err != nil {
		return nil, fmt.Errorf("record the session: %w (run with --no-record, or --record FILE)", err)
	}
	if _, err := recordings.Prune(dir, c.Keep, keepSize, path); err != nil {
		fmt.Fprintln(r.stderr, "mcpscope:", err)
	}
	return ui.NewRecorder(path, w), nil
}

// openRecording browses a recording read-only.
func (c OpenCmd) openRecording(r *runner) error {
	if _, err := os.Stat(c.File); err != nil {
		if !strings.ContainsAny(c.File, "./") {
			return usageError{fmt.Errorf("unknown command %q (and no recording file of that name); see mcpscope --help", filepath.Base(c.File))}
		}
		return usageError{fmt.Errorf("open recording: %w", err)}
	}
	rd, err := recordings.Open(c.File)
	if err != nil {
		return usageError{err}
	}
	defer rd.Close()
	h := rd.Header()
	opts := ui.Options{Recording: rd, Target: c.File, TransportName: h.Transport, HistoryLimit: c.History}
	if err := c.HistoryBounds.apply(&opts); err != nil {
		return err
	}
	if dir, err := recordings.DefaultRecordDir(); err == nil {
		// Beside the recordings: the user's state directory, mcpscope/form-args.json.
		opts.ArgsFile = filepath.Join(filepath.Dir(dir), "form-args.json")
	}
	if err := c.pinOption(&opts); err != nil {
		return err
	}
	return ui.Run(r.ctx, opts, c.Debug)
}

// parseSize reads a size in bytes: a number with an optional unit (B, KB, MB, GB, TB, or
// KiB, MiB, GiB, TiB; K, M, G, T are the binary ones).
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := len(t)
	for i > 0 && (t[i-1] < '0' || t[i-1] > '9') && t[i-1] != '.' {
		i--
	}
	num, unit := t[:i], strings.ToUpper(strings.TrimSpace(t[i:]))
	mult := map[string]float64{"": 1, "B": 1,
		"KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
		"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40,
		"KIB": 1 << 10, "MIB": 1 << 20, "GIB": 1 << 30, "TIB": 1 << 40}[unit]
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || mult == 0 || v < 0 {
		return 0, fmt.Errorf("%q is not a size (e.g. 1GiB, 500MB, 1048576)", s)
	}
	return int64(v * mult), nil
}
