package session_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"testing"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// window is how many tools/call requests are in flight at once in the round-trip benchmarks.
const window = 32

const echoParams = `{"name":"echo","arguments":{"message":"hello from the benchmark"}}`

// BenchmarkRoundTripSession pipelines tools/call echo through a Session over stdio against
// the demo server, with one subscriber draining the event stream as the CLI or TUI would.
func BenchmarkRoundTripSession(b *testing.B) {
	bin := sessiontest.BuildMCPScope(b)
	tr := transport.NewStdio(transport.StdioOptions{Command: bin, Args: []string{"demo"}})
	s := session.New(session.Config{Transport: tr, Protocol: "2025-11-25"})
	sub := s.Subscribe(0)
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		for {
			if _, ok := sub.Next(context.Background(), 0); !ok {
				return
			}
		}
	}()
	ctx := context.Background()
	if err := s.Connect(ctx); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = s.Close(); <-drained }()
	params := []byte(echoParams)
	b.ResetTimer()
	failed := sessiontest.Pipeline(ctx, s, b.N, window, "tools/call", params)
	b.StopTimer()
	if failed != nil {
		b.Fatal(failed)
	}
}

// BenchmarkRoundTripBare is the floor: the same requests written as lines and their answers
// read as lines, with no decoding beyond counting, against the same server.
func BenchmarkRoundTripBare(b *testing.B) {
	bin := sessiontest.BuildMCPScope(b)
	cmd := exec.Command(bin, "demo")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = stdin.Close(); _ = cmd.Wait() }()
	w := bufio.NewWriter(stdin)
	r := bufio.NewReaderSize(stdout, 1<<20)
	fmt.Fprintln(w, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
	fmt.Fprintln(w, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	_ = w.Flush()
	if _, err := r.ReadSlice('\n'); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	credits := make(chan struct{}, window)
	done := make(chan error, 1)
	go func() {
		for i := 0; i < b.N; i++ {
			line, err := r.ReadSlice('\n')
			if err != nil && err != bufio.ErrBufferFull {
				done <- err
				return
			}
			_ = line
			<-credits
		}
		done <- nil
	}()
	for i := 1; i <= b.N; i++ {
		credits <- struct{}{}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`+"\n", i, echoParams)
		if len(credits) == window || i == b.N {
			_ = w.Flush()
		}
	}
	_ = w.Flush()
	if err := <-done; err != nil {
		b.Fatal(err)
	}
}
