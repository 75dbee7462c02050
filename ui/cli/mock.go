package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/mcpscope/mcpscope/recordings"
)

// MockCmd serves recordings as an MCP server.
type MockCmd struct {
	Files  []string `arg:"" help:"Recordings to serve (made with --record); several are merged." type:"existingfile"`
	HTTP   string   `help:"Serve Streamable HTTP (JSON responses) at ADDR/mcp instead of stdio." placeholder:"ADDR"`
	Match  string   `help:"How a request matches a recorded one: method+params (params' _meta ignored) or method." enum:"method+params,method" default:"method+params"`
	Timing bool     `help:"Answer after the recorded latency."`
}

// Run implements the command.
func (c MockCmd) Run(r *runner) error {
	var ts []*recordings.Transcript
	for _, f := range c.Files {
		t, err := recordings.Load(f)
		if err != nil {
			return usageError{err}
		}
		for _, p := range t.Problems {
			fmt.Fprintf(r.stderr, "mock: %s: %s\n", f, p)
		}
		defer t.Close()
		ts = append(ts, t)
	}
	m, err := recordings.NewMock(ts, recordings.MockOptions{Match: c.Match, Timing: c.Timing, Log: r.stderr})
	if err != nil {
		return usageError{err}
	}
	if c.HTTP == "" {
		return m.ServeStdio(r.ctx, r.stdin, r.stdout)
	}
	return serveMockHTTP(r.ctx, c.HTTP, m, r)
}

// serveMockHTTP serves the mock at addr/mcp (and /) until ctx ends.
func serveMockHTTP(ctx context.Context, addr string, m *recordings.Mock, r *runner) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("mock: listen on %s: %w", addr, err)
	}
	fmt.Fprintf(r.stderr, "mock: serving the recording at http://%s/mcp (Streamable HTTP, JSON responses)\n", ln.Addr())
	srv := &http.Server{Handler: m.Handler(), ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("mock: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("mock: %w", err)
	}
	return nil
}
