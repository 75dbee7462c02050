package fault

import (
	"bytes"
	"io"
	"testing"
	"time"
)

// BenchmarkJudgeUntouched is the cost of fault rules to a message none of them acts on
// (what every message pays once rules are given): the decode and four queries.
func BenchmarkJudgeUntouched(b *testing.B) {
	rules, _ := ParseRules([]string{"error=-32603 tool:=search", "delay=1s method:=tools/list dir:in",
		"drop method:=notifications/progress", "corrupt=truncate dir:in id:999"}, nil)
	e := NewEngine(rules, 1)
	msg := result(7)
	b.SetBytes(int64(len(msg)))
	b.ReportAllocs()
	for b.Loop() {
		e.Judge(in, msg, time.Time{})
	}
}

// BenchmarkStreamUntouched is the tap's throughput through a Stream whose rules match
// nothing: 1 KiB lines in 64 KiB reads.
func BenchmarkStreamUntouched(b *testing.B) {
	rules, _ := ParseRules([]string{"error=-32603 tool:=search", "drop method:=notifications/progress"}, nil)
	line := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"`)
	line = append(line, bytes.Repeat([]byte("x"), 1024-len(line)-5)...)
	line = append(line, []byte(`"}]}}`)...)
	line = append(line, '\n')
	chunk := bytes.Repeat(line, 64)
	s := &Stream{Engine: NewEngine(rules, 1), Dir: in, Out: io.Discard}
	b.SetBytes(int64(len(chunk)))
	b.ReportAllocs()
	for b.Loop() {
		s.Write(chunk)
	}
}

// BenchmarkStreamIdle is a live tap's throughput through a Stream with no rules and no
// breakpoint enabled (every tap a viewer can attach to has one, to hold what its
// breakpoints match): the bytes pass as they come.
func BenchmarkStreamIdle(b *testing.B) {
	line := bytes.Repeat([]byte("x"), 1023)
	line = append(line, '\n')
	chunk := bytes.Repeat(line, 64)
	s := &Stream{Engine: NewEngine(nil, 1), Dir: in, Out: io.Discard}
	s.Engine.SetBreakpoints(NewBreakpoints())
	b.SetBytes(int64(len(chunk)))
	b.ReportAllocs()
	for b.Loop() {
		s.Write(chunk)
	}
}
