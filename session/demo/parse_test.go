package demo

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// TestStdioParseError: a line that is not JSON gets a -32700 answer and the server keeps
// serving the next request.
func TestStdioParseError(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- ServeStdio(ctx, inR, outW, io.Discard) }()
	lines := bufio.NewScanner(outR)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	next := func() string {
		got := make(chan string, 1)
		go func() {
			if lines.Scan() {
				got <- lines.Text()
			} else {
				got <- ""
			}
		}()
		select {
		case l := <-got:
			return l
		case <-time.After(10 * time.Second):
			t.Fatal("no answer from the demo server")
			return ""
		}
	}
	write := func(s string) {
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"jsonrpc":"2.0","id":1,"method":`)
	if l := next(); l != `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}` {
		t.Fatalf("answer to a broken line: %s", l)
	}
	write(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if l := next(); !strings.Contains(l, `"id":2`) || !strings.Contains(l, `"result"`) {
		t.Fatalf("the server did not keep serving: %s", l)
	}
	_ = inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("ServeStdio: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio did not return at end of stdin")
	}
}
