package demo

import (
	"context"
	"io"
	"testing"
	"time"
)

// TestServeStdioCancel checks that cancelling ctx ends ServeStdio even while
// it is blocked reading stdin.
func TestServeStdioCancel(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	stderr := newSyncBuffer()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeStdio(ctx, inR, io.Discard, stderr) }()
	stderr.waitFor(t, "serving MCP on stdio")
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeStdio after cancel: %v", err)
		}
	case <-time.After(waitTimeout):
		t.Fatal("ServeStdio did not return after ctx was cancelled")
	}
}
