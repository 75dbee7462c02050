package ui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/transport"
)

// TestMaskedFrameNotCut: a frame a recording masked reads back as masked, with its size on
// the wire, and is never said to be cut; one that was cut and then masked says both.
func TestMaskedFrameNotCut(t *testing.T) {
	const sec = "planted-secret-value-99"
	raw := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"key ` + sec + ` and token==\"box\";"}]}}`)
	path := filepath.Join(t.TempDir(), "r.jsonl")
	w, err := recordings.Create(path, recordings.Header{Server: "s"}, recordings.Options{Secrets: []string{sec}})
	if err != nil {
		t.Fatal(err)
	}
	for i, recv := range []transport.RecvInfo{{Via: "stdout", Size: int64(len(raw))}, {Via: "stdout", Size: 4096, Truncated: true}} {
		ev := &session.Event{Seq: uint64(i + 1), Time: time.Now(), Kind: session.EvFrame, Dir: protocol.ServerToClient, Frame: protocol.Decode(raw), Recv: recv}
		if err := w.Write(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for i, want := range []struct {
		cut  bool
		size int64
	}{{false, int64(len(raw))}, {true, 4096}} {
		e, err := r.Event(i)
		if err != nil {
			t.Fatal(err)
		}
		if !e.Recv.Masked || e.Recv.Truncated != want.cut || e.Recv.Size != want.size {
			t.Fatalf("frame %d read back as %+v", i, e.Recv)
		}
		got := sizeText(int64(len(e.Frame.Raw)), e.Recv)
		if !strings.Contains(got, "masked") || strings.Contains(got, "only the first") {
			t.Errorf("frame %d: size %q", i, got)
		}
		if !want.cut && e.Frame.Kind != protocol.KindResult {
			t.Errorf("frame %d: a masked frame is still the result it was, read %v", i, e.Frame.Kind)
		}
	}
}
