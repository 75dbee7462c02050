package recordings

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// answersRecording writes two generations (a restart numbers events from 1 again) in which
// the server asks the client (roots/list, sampling/createMessage declined, ping) and the
// client answers, each answer naming only its request's seq, as the session records it.
func answersRecording(t *testing.T) ([]*session.Event, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "answers.jsonl")
	w, err := Create(path, Header{Server: "answers", Transport: "stdio"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var evs []*session.Event
	start := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	for gen, asks := range [][]string{{"roots/list", "sampling/createMessage"}, {"ping"}} {
		seq := uint64(0)
		frame := func(dir protocol.Direction, raw string, corr session.Correlation) {
			seq++
			e := &session.Event{Seq: seq, Kind: session.EvFrame, Dir: dir, Frame: protocol.Decode([]byte(raw)), Corr: corr,
				Time: start.Add(time.Duration(seq*seq) * time.Millisecond)} // an answer takes 2×seq−1 ms
			if err := w.WriteGen(e, gen); err != nil {
				t.Fatal(err)
			}
			evs = append(evs, e)
		}
		frame(protocol.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, session.Correlation{})
		frame(protocol.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`, session.Correlation{Method: "tools/list", RequestSeq: seq})
		for i, m := range asks {
			frame(protocol.ServerToClient, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q}`, 100+i, m), session.Correlation{})
			if m == "sampling/createMessage" {
				frame(protocol.ClientToServer, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"error":{"code":-1,"message":"declined"}}`, 100+i), session.Correlation{RequestSeq: seq})
				continue
			}
			frame(protocol.ClientToServer, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{}}`, 100+i), session.Correlation{RequestSeq: seq})
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return evs, path
}

// TestStatsServerRequestAnswers: the client's answer to a server→client request is counted
// under its request's method (not as an "(unknown)" response, its request unanswered) with
// its latency measured from the request's arrival, from
// live events and from a recording read in chunks of one line, whose answers' requests are
// in earlier chunks.
func TestStatsServerRequestAnswers(t *testing.T) {
	evs, path := answersRecording(t)
	var live Stats
	for _, e := range evs {
		live.AddEvent(e)
	}
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.chunkBytes = 1
	file, err := r.Stats(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][3]int{ // requests, responses, errors
		"tools/list": {2, 2, 0}, "roots/list": {1, 1, 0}, "sampling/createMessage": {1, 1, 1}, "ping": {1, 1, 0},
	}
	for name, st := range map[string]*Stats{"live": &live, "recording": file} {
		got := map[string][3]int{}
		for _, m := range st.Methods() {
			got[m.Method] = [3]int{m.Requests, m.Responses, m.Errors}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: per method %v\nwant %v", name, got, want)
		}
		// An answer's latency is the time from its request's arrival: seq 3 answered at
		// seq 4 (16−9 ms), seq 5 at seq 6 (36−25 ms), seq 3 of the second session at seq 4.
		lat := map[string]float64{}
		for _, m := range st.Methods() {
			lat[m.Method] = m.P50
		}
		if wantLat := map[string]float64{"tools/list": 0, "roots/list": 7, "sampling/createMessage": 11, "ping": 7}; fmt.Sprint(lat) != fmt.Sprint(wantLat) {
			t.Errorf("%s: p50 latency per method %v\nwant %v", name, lat, wantLat)
		}
		if st.Frames != len(evs) {
			t.Errorf("%s: %d frames counted, want %d", name, st.Frames, len(evs))
		}
	}
}

// TestStatsUnmatchedAnswer: an answer whose request is not in the recording still counts,
// as "(unknown)".
func TestStatsUnmatchedAnswer(t *testing.T) {
	var st Stats
	st.Add(Sample{Kind: "result", Out: true, Request: 9, Seq: 10})
	c := &Stats{deferAnswers: true}
	c.Add(Sample{Kind: "result", Out: true, Request: 7, Seq: 8})
	st.Merge(c)
	ms := st.Methods()
	if len(ms) != 1 || ms[0].Method != unknownMethod || ms[0].Responses != 2 || st.Frames != 2 {
		t.Errorf("unmatched answers: %+v, %d frames", ms, st.Frames)
	}
}
