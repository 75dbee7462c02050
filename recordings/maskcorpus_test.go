package recordings_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/transport"
)

// The secrets planted in testdata/maskcorpus: two values mcpscope is given (an -e value
// and a bearer token), and two it finds by form (a secret JSON member, a .env key).
var (
	plantedGiven = []string{"e-planted-Value-7781", "bearer-planted-Token-0042"}
	plantedFound = []string{"wJalrXUtnFEMI/K7MDENG/bPxRfiCyPLANTED", "sk-live-PLANTED0123456789abcdefXYZ"}
)

// corpusFrames are the frames a server sends with a corpus file: a resource read whose text
// is the file, encoded as a Node server does (HTML as it is) and as a Go server does (<, >
// and & as \u escapes), and for a JSON file the JSON itself as the result.
func corpusFrames(t *testing.T, name, text string) [][]byte {
	t.Helper()
	res := map[string]any{"contents": []any{map[string]any{"uri": "file:///" + name, "mimeType": "text/plain", "text": text}}}
	var node bytes.Buffer
	enc := json.NewEncoder(&node)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{"jsonrpc": "2.0", "id": 1, "result": res}); err != nil {
		t.Fatal(err)
	}
	goBytes, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 2, "result": res})
	if err != nil {
		t.Fatal(err)
	}
	out := [][]byte{bytes.TrimSpace(node.Bytes()), goBytes}
	if strings.HasSuffix(name, ".json") {
		out = append(out, []byte(`{"jsonrpc":"2.0","id":3,"result":`+strings.TrimSpace(text)+`}`))
	}
	return out
}

// TestMaskCorpus records real-looking JavaScript, HTML, SQL, shell, .env and JSON through
// the recording writer with masking on, and reads them back: each frame is the one sent
// with only the planted secrets replaced by the mask, valid JSON, marked masked when it
// held a secret and never shown as cut.
func TestMaskCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "maskcorpus")
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var plants []string
	for _, p := range append(append([]string(nil), plantedGiven...), plantedFound...) {
		plants = append(plants, p, recordings.Mask)
	}
	unplant := strings.NewReplacer(plants...)
	path := filepath.Join(t.TempDir(), "corpus.jsonl")
	w, err := recordings.Create(path, recordings.Header{Server: "corpus"}, recordings.Options{Secrets: plantedGiven})
	if err != nil {
		t.Fatal(err)
	}
	type sent struct {
		name         string
		raw, want    []byte
		text, wantTx string // for a stderr line
	}
	var all []sent
	seen := map[string]bool{}
	seq := uint64(0)
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		for _, p := range append(append([]string(nil), plantedGiven...), plantedFound...) {
			seen[p] = seen[p] || strings.Contains(text, p)
		}
		for _, raw := range corpusFrames(t, f.Name(), text) {
			seq++
			ev := &session.Event{Seq: seq, Time: time.Now(), Kind: session.EvFrame, Dir: protocol.ServerToClient,
				Frame: protocol.Decode(raw), Recv: transport.RecvInfo{Via: "stdout", Size: int64(len(raw))}}
			if err := w.Write(ev); err != nil {
				t.Fatal(err)
			}
			all = append(all, sent{name: f.Name(), raw: raw, want: []byte(unplant.Replace(string(raw)))})
		}
		for l := range strings.Lines(text) {
			l = strings.TrimRight(l, "\n")
			seq++
			if err := w.Write(&session.Event{Seq: seq, Time: time.Now(), Kind: session.EvStderr, Text: l}); err != nil {
				t.Fatal(err)
			}
			all = append(all, sent{name: f.Name(), text: l, wantTx: unplant.Replace(l)})
		}
	}
	for p, ok := range seen {
		if !ok {
			t.Errorf("the corpus plants no %q", p)
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
	if r.Len() != len(all) {
		t.Fatalf("%d events read back, %d written", r.Len(), len(all))
	}
	for i, s := range all {
		e, err := r.Event(i)
		if err != nil {
			t.Fatalf("%s event %d: %v", s.name, i, err)
		}
		if s.raw == nil {
			if e.Text != s.wantTx {
				t.Errorf("%s: stderr line\n%q\nread back as\n%q", s.name, s.wantTx, e.Text)
			}
			continue
		}
		masked := !bytes.Equal(s.raw, s.want)
		if !bytes.Equal(e.Frame.Raw, s.want) {
			t.Errorf("%s frame %d:\nwant %s\n got %s", s.name, i, s.want, e.Frame.Raw)
		}
		if e.Frame.Kind != protocol.KindResult || !json.Valid(e.Frame.Raw) {
			t.Errorf("%s frame %d is no longer a valid result: %v", s.name, i, e.Frame.Kind)
		}
		if e.Recv.Truncated || len(e.Frame.Findings) > 0 {
			t.Errorf("%s frame %d read back as cut (%v) or with findings %v", s.name, i, e.Recv.Truncated, e.Frame.Findings)
		}
		if e.Recv.Masked != masked || e.Recv.Size != int64(len(s.raw)) {
			t.Errorf("%s frame %d: masked %v (want %v), size %d (want the wire's %d)", s.name, i, e.Recv.Masked, masked, e.Recv.Size, len(s.raw))
		}
	}
}
