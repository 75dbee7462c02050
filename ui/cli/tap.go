package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/recordings/export"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/session/secret"
)

// TapCmd puts mcpscope between a host and a server, recording and streaming the traffic.
type TapCmd struct {
	Name        string `help:"Name viewers attach by (default: the command's name, or the package an npx/uvx command runs, or the upstream host); also names the recording." placeholder:"NAME"`
	Listen      string `help:"Serve a reverse proxy for a Streamable HTTP server on ADDR (with --upstream) instead of spawning a command." placeholder:"ADDR"`
	Upstream    string `help:"URL of the server the proxy forwards to; the host uses http://ADDR with the same path." placeholder:"URL"`
	NoRecord    bool   `help:"Do not write a recording (viewers can still attach)."`
	OTLP        bool   `name:"otlp" help:"Export the traffic live as OpenTelemetry spans to an OTLP/HTTP endpoint ($OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, $OTEL_EXPORTER_OTLP_ENDPOINT, else http://localhost:4318/v1/traces)."`
	OTLPURL     string `name:"otlp-endpoint" help:"With --otlp: the OTLP/HTTP traces URL to send to." placeholder:"URL"`
	AllowRemote bool   `name:"allow-remote" help:"With --listen: listen on an address other hosts can reach (any Host header is then taken; a cross-site Origin is still refused)."`
	// Command is the server command when it is given without "--": the first word that is
	// not a flag of tap starts it, and every word after it belongs to the server.
	Command []string `arg:"" optional:"" passthrough:"" help:"The server command and its arguments (the -- before it may be left out)." placeholder:"CMD ARGS"`
}

// serverCommand is the command the tap runs: the words from the first non-flag one on,
// joined with those after a "--" that followed them (that "--" was the server's own).
func (c TapCmd) serverCommand(afterDash []string) []string {
	if len(c.Command) == 0 {
		return afterDash
	}
	cmd := append([]string(nil), c.Command...)
	if afterDash != nil {
		cmd = append(append(cmd, "--"), afterDash...)
	}
	return cmd
}

// exitStatus is a tap's exit status: the server's, passed through.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }
func (e exitStatus) ExitCode() int { return int(e) }
func (e exitStatus) Unwrap() error { return errReported }

// Run implements the command.
func (c TapCmd) Run(r *runner) error {
	f := r.flags
	r.command = c.serverCommand(r.command)
	if f.URL != "" || f.Config != "" {
		return usageError{errors.New("tap: give the server as [--] CMD ARGS (stdio) or --listen ADDR --upstream URL (HTTP)")}
	}
	if c.NoRecord && f.Record != "" {
		return usageError{errors.New("tap: --record and --no-record together")}
	}
	viewerBytes, err := f.eventBuffer()
	if err != nil {
		return err
	}
	cfg := recordings.TapConfig{Name: c.Name, ExactName: c.Name != "", Record: f.Record, MaxFrame: f.MaxFrame, ViewerBytes: viewerBytes,
		Options: recordings.Options{NoRedact: f.NoRedact, Secrets: envSecrets(f.Env)}}
	if f.Record == "" && !c.NoRecord {
		dir, err := recordings.DefaultRecordDir()
		if err != nil {
			return usageError{err}
		}
		cfg.RecordDir = dir
	}
	if c.OTLPURL != "" && !c.OTLP {
		return usageError{errors.New("tap: --otlp-endpoint goes with --otlp")}
	}
	rules, seed, err := r.faultSetup()
	if err != nil {
		return err
	}
	if len(rules) > 0 {
		cfg.Faults = fault.NewEngine(rules, seed)
	}
	if c.Listen != "" || c.Upstream != "" {
		return c.runHTTP(r, cfg)
	}
	if c.AllowRemote {
		return usageError{errors.New("tap: --allow-remote goes with --listen")}
	}
	if len(r.command) == 0 {
		return usageError{errors.New("tap: give the server to run, e.g. mcpscope tap -- npx -y @modelcontextprotocol/server-everything")}
	}
	if cfg.Name == "" {
		cfg.Name = recordings.DefaultTapName(r.command)
	}
	cfg.Header = recordings.Header{Server: session.ServerSpec{Command: r.command}.Describe(), Transport: "stdio", Protocol: "auto"}
	live, err := c.otlp(r, &cfg)
	if err != nil {
		return err
	}
	defer c.closeOTLP(r, live)
	t, err := recordings.NewTap(cfg)
	if err != nil {
		return usageError{err}
	}
	c.announce(r, t, "")

	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	// A host that goes away must not kill the tap with SIGPIPE: it records on and lets the
	// server end by itself.
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE)
	defer signal.Stop(pipe)

	code, err := t.RunStdio(context.WithoutCancel(r.ctx), recordings.StdioTap{Command: r.command[0], Args: r.command[1:],
		Env: f.Env, Dir: f.Cwd, Stdin: r.stdin, Stdout: r.stdout, Stderr: r.stderr, Signals: sigs})
	if code < 0 {
		if err == nil {
			err = errors.New("tap: the server's exit status is unknown")
		}
		return connectFailure{fmt.Errorf("tap: %w", err)}
	}
	if err != nil {
		fmt.Fprintln(r.stderr, "mcpscope tap: recording:", err)
	}
	if code != 0 {
		return exitStatus(code)
	}
	return nil
}

// runHTTP serves the reverse proxy until interrupted.
func (c TapCmd) runHTTP(r *runner, cfg recordings.TapConfig) error {
	if c.Listen == "" || c.Upstream == "" {
		return usageError{errors.New("tap: --listen ADDR and --upstream URL go together")}
	}
	if len(r.command) > 0 {
		return usageError{errors.New("tap: either -- CMD ARGS or --listen/--upstream, not both")}
	}
	if !c.AllowRemote && !recordings.IsLoopbackListen(c.Listen) {
		return usageError{fmt.Errorf("tap: --listen %s: the tap listens on a loopback address (127.0.0.1:PORT, [::1]:PORT, localhost:PORT) unless --allow-remote", c.Listen)}
	}
	up, err := url.Parse(c.Upstream)
	if err != nil || (up.Scheme != "http" && up.Scheme != "https") || up.Host == "" {
		return usageError{fmt.Errorf("tap: --upstream %q: want an http or https URL", c.Upstream)}
	}
	if cfg.Name == "" {
		cfg.Name = up.Hostname()
	}
	cfg.Options.Secrets = append(cfg.Options.Secrets, secret.URLValues(c.Upstream)...)
	cfg.Header = recordings.Header{Server: secret.URL(c.Upstream), Transport: "http", Protocol: "auto"}
	live, err := c.otlp(r, &cfg)
	if err != nil {
		return err
	}
	defer c.closeOTLP(r, live)
	ln, err := net.Listen("tcp", c.Listen)
	if err != nil {
		return usageError{fmt.Errorf("tap: listen on %s: %w", c.Listen, err)}
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok && !c.AllowRemote && !tcp.IP.IsLoopback() {
		ln.Close()
		return usageError{fmt.Errorf("tap: --listen %s listens on %s, not a loopback address (--allow-remote to allow it)", c.Listen, tcp.IP)}
	}
	t, err := recordings.NewTap(cfg)
	if err != nil {
		ln.Close()
		return usageError{err}
	}
	defer t.Close()
	local := "http://" + ln.Addr().String() + up.EscapedPath()
	c.announce(r, t, local)
	srv := &http.Server{Handler: recordings.GuardHost(ln.Addr(), c.AllowRemote, t.HTTPProxy(up)), ReadHeaderTimeout: 30 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("tap: %w", err)
	case <-r.ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if srv.Shutdown(sctx) != nil {
		_ = srv.Close() // event streams stay open until cut
	}
	<-errc
	return t.Close()
}

// otlp starts the live OTLP export with --otlp and hands it the tap's events.
func (c TapCmd) otlp(r *runner, cfg *recordings.TapConfig) (*export.Live, error) {
	if !c.OTLP {
		return nil, nil
	}
	h := cfg.Header
	h.Name = cfg.Name
	m := recordings.NewRedactor(cfg.Options).Masker()
	h.Server = m.String(h.Server)
	live, err := export.NewLive(r.ctx, h, m, export.OTLPOptions{Endpoint: c.OTLPURL, Version: session.Version()})
	if err != nil {
		return nil, usageError{fmt.Errorf("tap: %w", err)}
	}
	cfg.Observe = live.Observe
	return live, nil
}

// closeOTLP sends the last spans, waiting at most 5 s, after the tap has closed.
func (c TapCmd) closeOTLP(r *runner, live *export.Live) {
	if live == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.ctx), 5*time.Second)
	defer cancel()
	if err := live.Close(ctx); err != nil {
		fmt.Fprintln(r.stderr, "mcpscope tap: OTLP export:", err)
	}
	if n := live.Dropped(); n > 0 {
		fmt.Fprintf(r.stderr, "mcpscope tap: OTLP export: %d events were not exported (the exporter fell behind)\n", n)
	}
}

// announce says on stderr where the tap records and how to watch it.
func (c TapCmd) announce(r *runner, t *recordings.Tap, local string) {
	if m := t.Moved(); m != "" { // even with --quiet: someone else holds the usual place
		fmt.Fprintf(r.stderr, "mcpscope tap %s: %s\n", t.Name(), m)
	}
	if r.flags.Quiet {
		return
	}
	if local != "" {
		fmt.Fprintf(r.stderr, "mcpscope tap %s: listening on %s (forwarding to %s)\n", t.Name(), local, secret.URL(c.Upstream))
	}
	if p := t.RecordPath(); p != "" {
		fmt.Fprintf(r.stderr, "mcpscope tap %s: recording to %s\n", t.Name(), p)
	}
	fmt.Fprintf(r.stderr, "mcpscope tap %s: watch with: mcpscope attach %s\n", t.Name(), t.Name())
}

// envSecrets are the values of -e KEY=VAL, kept out of recordings.
func envSecrets(env []string) []string {
	var out []string
	for _, kv := range env {
		if _, v, ok := strings.Cut(kv, "="); ok {
			out = append(out, v)
		}
	}
	return out
}
