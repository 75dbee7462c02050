package recordings_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

const benchWindow = 32

const benchParams = `{"name":"echo","arguments":{"text":"hello from the benchmark"}}`

// BenchmarkRecordOverhead pipelines tools/call echo through a session over stdio against
// the demo server (as session's BenchmarkRoundTripSession does), with one subscriber
// draining the events ("plain") or a Writer recording them to a file ("recorded").
func BenchmarkRecordOverhead(b *testing.B) {
	for _, record := range []bool{false, true} {
		name := "plain"
		if record {
			name = "recorded"
		}
		b.Run(name, func(b *testing.B) { benchRoundTrip(b, record) })
	}
}

func benchRoundTrip(b *testing.B, record bool) {
	bin := sessiontest.BuildMCPScope(b)
	tr := transport.NewStdio(transport.StdioOptions{Command: bin, Args: []string{"demo"}})
	s := session.New(session.Config{Transport: tr, Protocol: "2025-11-25"})
	sub := s.Subscribe(0)
	var w *recordings.Writer
	drained := make(chan struct{})
	if record {
		var err error
		w, err = recordings.Create(filepath.Join(b.TempDir(), "bench.jsonl"), recordings.Header{Server: "demo"}, recordings.Options{Secrets: []string{"a-secret-value"}})
		if err != nil {
			b.Fatal(err)
		}
		w.Record(sub)
		close(drained)
	} else {
		go func() {
			defer close(drained)
			for {
				if _, ok := sub.Next(context.Background(), 0); !ok {
					return
				}
			}
		}()
	}
	ctx := context.Background()
	if err := s.Connect(ctx); err != nil {
		b.Fatal(err)
	}
	defer func() {
		_ = s.Close()
		<-drained
		if w != nil {
			if err := w.Close(); err != nil {
				b.Error(err)
			}
		}
	}()
	params := []byte(benchParams)
	cpu0 := cpuTime()
	b.ResetTimer()
	failed := sessiontest.Pipeline(ctx, s, b.N, benchWindow, "tools/call", params)
	b.StopTimer()
	if failed != nil {
		b.Fatal(failed)
	}
	// CPU time of this process (not the server's) per call: less disturbed than wall time
	// by other work on the machine. The recorder writes after each batch of events, so
	// most of its work is inside this window.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// benchRecordingMB is the size of the recording BenchmarkOpenIndex indexes.
const benchRecordingMB = 200

// BenchmarkOpenIndex opens (indexes) a 200 MB recording of request/response pairs and
// reports the throughput and the memory the index holds.
func BenchmarkOpenIndex(b *testing.B) {
	path := filepath.Join(b.TempDir(), "large.jsonl")
	events := writeLargeRecording(b, path, benchRecordingMB<<20)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	var before, after runtime.MemStats
	var heap uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		runtime.GC()
		runtime.ReadMemStats(&before)
		r, err := recordings.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap = after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc)
		if r.Len() != events {
			b.Fatalf("indexed %d events, wrote %d", r.Len(), events)
		}
		if _, err := r.Event(r.Len() - 1); err != nil {
			b.Fatal(err)
		}
		runtime.KeepAlive(r)
		r.Close()
	}
	b.StopTimer()
	b.ReportMetric(float64(heap)/(1<<20), "index-MiB")
	b.ReportMetric(float64(heap)/float64(events), "index-B/event")
	b.ReportMetric(float64(events), "events")
}

// writeLargeRecording writes tools/call requests and responses of about 400 bytes each
// until the file reaches size bytes, and returns how many events it wrote.
func writeLargeRecording(b *testing.B, path string, size int64) int {
	b.Helper()
	w, err := recordings.Create(path, recordings.Header{Server: "bench"}, recordings.Options{})
	if err != nil {
		b.Fatal(err)
	}
	t0 := time.Now()
	n := 0
	written := int64(0)
	for written < size {
		id := n/2 + 1
		var raw string
		dir := protocol.ClientToServer
		if n%2 == 0 {
			raw = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"request number %d of the benchmark recording"}}}`, id, id)
		} else {
			dir = protocol.ServerToClient
			raw = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"request number %d of the benchmark recording"}]}}`, id, id)
		}
		e := &session.Event{Seq: uint64(n + 1), Time: t0.Add(time.Duration(n) * time.Microsecond), Kind: session.EvFrame, Dir: dir,
			Frame: protocol.Decode([]byte(raw)), Recv: transport.RecvInfo{Via: "stdout", Size: int64(len(raw))}}
		if dir == protocol.ServerToClient {
			e.Corr = session.Correlation{Method: "tools/call", RequestSeq: uint64(n), Latency: 150 * time.Microsecond}
		}
		if err := w.Write(e); err != nil {
			b.Fatal(err)
		}
		written += int64(len(raw)) + 200 // the line's other members, near enough
		n++
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return n
}

// BenchmarkWrite is the recorder's own cost per event: encode, mask, one write.
func BenchmarkWrite(b *testing.B) {
	w, err := recordings.Create(filepath.Join(b.TempDir(), "w.jsonl"), recordings.Header{Server: "bench"}, recordings.Options{Secrets: []string{"a-secret-value"}})
	if err != nil {
		b.Fatal(err)
	}
	raw := []byte(`{"jsonrpc":"2.0","id":12,"result":{"content":[{"type":"text","text":"hello from the benchmark"}]}}`)
	e := &session.Event{Seq: 1, Time: time.Now(), Kind: session.EvFrame, Dir: protocol.ServerToClient, Frame: protocol.Decode(raw),
		Recv: transport.RecvInfo{Via: "stdout", Size: int64(len(raw))}, Corr: session.Correlation{Method: "tools/call", RequestSeq: 1, Latency: time.Millisecond}}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if err := w.Write(e); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}
