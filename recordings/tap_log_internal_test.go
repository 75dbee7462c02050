package recordings

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/transport/lines"
)

// TestTapLogBehind: while the log is stuck, chunks beyond its bound are not queued (the
// pump never waits); the loss becomes one note in its place, the lines cut by it are dropped,
// and the stream resumes at its next whole line, in wire order.
func TestTapLogBehind(t *testing.T) {
	log := newTapLog(12, 100)
	var got []string
	st := &tapStream{log: log, name: "stdout", note: func(kind, text string) { got = append(got, kind+": "+text) }}
	st.sp = &lines.Splitter{Max: 100, Head: 100, Emit: func(l []byte, _ int64, _, _ bool) { got = append(got, string(l)) }}
	stuck := make(chan struct{})
	log.do(func() { <-stuck })
	st.feed([]byte("one\n"))   // 4 bytes queued
	st.feed([]byte("two\nth")) // 6 more: 10 of 12
	st.feed([]byte("ree\n"))   // 4 more would be 14: lost
	st.feed([]byte("four\n"))  // lost too, and the loss cannot be queued ahead of it
	close(stuck)
	for len(log.work) > 0 { // let the log catch up before the next chunk
		log.do(func() {})
	}
	st.feed([]byte("five\nsix\n"))
	st.end()
	log.stop()
	want := []string{"one", "two",
		"record-behind: stdout: 9 bytes forwarded but not recorded: the recording fell behind the wire; what follows resumes at the next whole line",
		"five", "six"}
	if !slices.Equal(got, want) {
		t.Errorf("the log recorded\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if room := log.room.Load(); room != 12 {
		t.Errorf("room after the log ran everything: %d, want 12", room)
	}
}
