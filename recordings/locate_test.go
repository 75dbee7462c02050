package recordings_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
)

// TestLocateLargeFrames writes small and large frames of two sessions and reads the large
// ones back through the writer's index: whole, byte for byte, including one located before
// it was written; small frames and events never written are reported as not recorded.
func TestLocateLargeFrames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.jsonl")
	w, err := recordings.Create(path, recordings.Header{Server: "test", Transport: "stdio"}, recordings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.IndexFrames(1000)
	now := time.Now()
	frame := func(seq uint64, text string) *session.Event {
		raw := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"` + text + `"}}`)
		return &session.Event{Seq: seq, Time: now.Add(time.Duration(seq)), Kind: session.EvFrame,
			Dir: protocol.ServerToClient, Frame: protocol.Decode(raw)}
	}
	big1 := frame(2, strings.Repeat("a", 5000)+"END1")
	big2 := frame(2, strings.Repeat("b", 3000)+"END2") // the same seq in session 2
	for _, c := range []struct {
		gen int
		ev  *session.Event
	}{{1, frame(1, "small")}, {1, big1}, {2, frame(1, "small")}, {2, big2}} {
		if err := w.WriteGen(c.ev, c.gen); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, c := range []struct {
		gen int
		ev  *session.Event
	}{{1, big1}, {2, big2}} {
		loc, err := w.Locate(ctx, c.gen, c.ev.Seq)
		if err != nil {
			t.Fatalf("Locate(%d, %d): %v", c.gen, c.ev.Seq, err)
		}
		en, err := recordings.ReadAt(path, loc)
		if err != nil {
			t.Fatal(err)
		}
		if en.Gen != c.gen || !bytes.Equal(en.Event.Frame.Raw, c.ev.Frame.Raw) {
			t.Errorf("read back gen %d %q…, want gen %d %q…", en.Gen, en.Event.Frame.Raw[:40], c.gen, c.ev.Frame.Raw[:40])
		}
	}
	if _, err := w.Locate(ctx, 1, 1); !errors.Is(err, recordings.ErrNotRecorded) {
		t.Errorf("a small frame: %v, want ErrNotRecorded", err)
	}

	// An event not written yet: Locate waits for it.
	found := make(chan error, 1)
	go func() {
		_, err := w.Locate(ctx, 1, 3)
		found <- err
	}()
	if err := w.WriteGen(frame(3, strings.Repeat("c", 2000)), 1); err != nil {
		t.Fatal(err)
	}
	if err := <-found; err != nil {
		t.Errorf("Locate of an event written later: %v", err)
	}

	// Once closed, an event never written is not recorded; Locate does not wait.
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Locate(ctx, 1, 9); !errors.Is(err, recordings.ErrNotRecorded) {
		t.Errorf("after Close: %v, want ErrNotRecorded", err)
	}
	// The file is still an ordinary recording.
	r, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Len() != 5 || len(r.Problems()) != 0 {
		t.Errorf("recording has %d events, problems %v", r.Len(), r.Problems())
	}
}
