package recordings

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/transport"
)

// cutSink is a transport.Sink that keeps the stdout lines, the stderr lines and the exit.
type cutSink struct {
	mu     sync.Mutex
	lines  []string
	infos  []transport.RecvInfo
	stderr []string
	exit   chan transport.ExitInfo
}

func (s *cutSink) Received(raw []byte, info transport.RecvInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines, s.infos = append(s.lines, string(raw)), append(s.infos, info)
}

func (s *cutSink) Stderr(line []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stderr = append(s.stderr, string(line))
}

func (s *cutSink) HTTP(*transport.HTTPExchange) {}
func (s *cutSink) Note(transport.Note)          {}
func (s *cutSink) Exited(info transport.ExitInfo) {
	s.exit <- info
}

// TestTapCutsLikeTheTransport runs one script through the stdio transport and through the
// tap: both cut its stdout into the same frames (a "\r" kept, an empty line, a line over the
// limit truncated to the same head with its full size, an unterminated last line) and its
// stderr into the same pieces, and keep the same last stderr lines.
func TestTapCutsLikeTheTransport(t *testing.T) {
	const maxLine = transport.TruncatedHead + 1000
	script := `printf 'one\r\n\n'; head -c 70000 /dev/zero | tr '\0' a; echo; echo after;` +
		`head -c 65546 /dev/zero | tr '\0' e >&2; echo >&2; i=0; while [ $i -lt 25 ]; do echo "err $i" >&2; i=$((i+1)); done;` +
		`printf 'err last' >&2; printf 'last'`
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	sink := &cutSink{exit: make(chan transport.ExitInfo, 1)}
	tr := transport.NewStdio(transport.StdioOptions{Command: "sh", Args: []string{"-c", script}, MaxLine: maxLine})
	if err := tr.Start(ctx, sink); err != nil {
		t.Fatal(err)
	}
	var direct transport.ExitInfo
	select {
	case direct = <-sink.exit:
	case <-ctx.Done():
		t.Fatal("the transport's server did not exit")
	}
	tr.Close(ctx)

	var tapLines, tapStderr []string
	var tapInfos []transport.RecvInfo
	var tapped *transport.ExitInfo
	tp, err := NewTap(TapConfig{Name: "cut", NoLive: true, MaxFrame: maxLine, Observe: func(e *session.Event) {
		switch {
		case e.Kind == session.EvFrame && e.Dir == protocol.ServerToClient:
			tapLines, tapInfos = append(tapLines, string(e.Frame.Raw)), append(tapInfos, e.Recv)
		case e.Kind == session.EvStderr:
			tapStderr = append(tapStderr, e.Text)
		case e.Kind == session.EvExit:
			tapped = e.Exit
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tp.RunStdio(ctx, StdioTap{Command: "sh", Args: []string{"-c", script}, Stdin: strings.NewReader("")}); err != nil {
		t.Fatal(err)
	}

	sink.mu.Lock()
	defer sink.mu.Unlock()
	if len(sink.lines) != 5 || sink.lines[0] != "one\r" || !sink.infos[2].Truncated || len(sink.lines[2]) != transport.TruncatedHead ||
		sink.infos[2].Size != 70000 || !sink.infos[4].Unterminated {
		t.Errorf("the transport's lines: %d, infos %+v", len(sink.lines), sink.infos)
	}
	if strings.Join(tapLines, "|") != strings.Join(sink.lines, "|") {
		t.Errorf("stdout lines differ: tap %d, transport %d", len(tapLines), len(sink.lines))
	}
	for i := range min(len(tapInfos), len(sink.infos)) {
		if tapInfos[i] != sink.infos[i] {
			t.Errorf("line %d: tap %+v, transport %+v", i, tapInfos[i], sink.infos[i])
		}
	}
	if len(sink.stderr) != 28 || len(sink.stderr[0]) != transport.StderrChunk || sink.stderr[27] != "err last" {
		t.Errorf("the transport's stderr: %d pieces", len(sink.stderr))
	}
	if strings.Join(tapStderr, "|") != strings.Join(sink.stderr, "|") {
		t.Errorf("stderr pieces differ: tap %d, transport %d", len(tapStderr), len(sink.stderr))
	}
	if tapped == nil || len(direct.LastStderr) != transport.StderrKeep ||
		strings.Join(tapped.LastStderr, "|") != strings.Join(direct.LastStderr, "|") {
		t.Errorf("last stderr: tap %v, transport %v", tapped, direct.LastStderr)
	}
}
