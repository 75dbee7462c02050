//go:build unix

package ui

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// TestRecorderKeepsFlood records a session whose server floods 64 KiB notifications into a
// recording that drains slowly (a named pipe read at 8 MB/s), with a 1 MiB event buffer:
// the interactive view's recorder holds the server back instead of dropping, so the
// recording has every seq and every notification.
func TestRecorderKeepsFlood(t *testing.T) {
	dir := t.TempDir()
	fifo, path := filepath.Join(dir, "pipe"), filepath.Join(dir, "flood.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	drained := make(chan error, 1)
	go func() { // the slow disk: copies the pipe to the file at about 8 MB/s
		in, err := os.Open(fifo)
		if err != nil {
			drained <- err
			return
		}
		defer in.Close()
		out, err := os.Create(path)
		if err != nil {
			drained <- err
			return
		}
		buf := make([]byte, 64<<10)
		for {
			n, err := in.Read(buf)
			out.Write(buf[:n])
			time.Sleep(time.Duration(n) * time.Second / (8 << 20)) // the pace, not a wait for anything
			if err == io.EOF {
				drained <- out.Close()
				return
			}
			if err != nil {
				drained <- err
				return
			}
		}
	}()
	w, err := recordings.Create(fifo, recordings.Header{Server: "badserver"}, recordings.Options{Overwrite: true})
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecorder(fifo, w)
	tr := transport.NewStdio(transport.StdioOptions{Command: sessiontest.BuildBadServer(t)})
	s := session.New(session.Config{Transport: tr, EventBytes: 1 << 20})
	rec.record(s, 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	const count = 300
	if _, err := s.Call(ctx, "tools/call", map[string]any{"name": "flood", "arguments": map[string]any{"size": 65536, "count": count}}); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-drained; err != nil {
		t.Fatal(err)
	}
	var evs []*session.Event
	for _, e := range readRecording(t, path) {
		evs = append(evs, e.Event)
	}
	notes := sessiontest.CheckWhole(t, evs, "notifications/message")
	if notes != count {
		t.Errorf("the recording holds %d of %d notifications", notes, count)
	}
}
