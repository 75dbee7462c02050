package fault

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// feed writes in to s in pieces of n bytes, then ends it.
func feed(t *testing.T, s *Stream, in []byte, n int) {
	t.Helper()
	for len(in) > 0 {
		k := min(n, len(in))
		if _, err := s.Write(in[:k]); err != nil {
			t.Fatal(err)
		}
		in = in[k:]
	}
	if err := s.End(); err != nil {
		t.Fatal(err)
	}
}

// TestStreamUntouched: with rules that match nothing, the bytes out are the bytes in,
// whatever the pieces they come in (CRLF, blank lines, an unterminated last line, a line
// longer than Max).
func TestStreamUntouched(t *testing.T) {
	in := []byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n\n  \n" + string(call(2, "echo")) + "\n" +
		strings.Repeat("x", 300) + "\n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}")
	for _, n := range []int{1, 7, 64, len(in)} {
		var got bytes.Buffer
		s := &Stream{Engine: engine(t, 1, "drop tool:=nothing", "error=-1 method:=nothing/else", "corrupt=truncate dir:in"),
			Dir: out, Out: &got, Max: 256}
		feed(t, s, in, n)
		if !bytes.Equal(got.Bytes(), in) {
			t.Errorf("pieces of %d: got\n%q\nwant\n%q", n, got.Bytes(), in)
		}
	}
}

// TestStreamFaults: an error answer goes back to the sender and the request never goes
// on; a dropped line is gone; a disconnect closes and swallows the rest; each is reported.
func TestStreamFaults(t *testing.T) {
	var fwd, back bytes.Buffer
	var reports []string
	closed := 0
	s := &Stream{Engine: engine(t, 1, "error=-32603 tool:=search", "drop tool:=gone", "disconnect tool:=bye"), Dir: out,
		Out: &fwd, Back: &back, Disconnect: func() { closed++ }, Report: func(a *Applied) { reports = append(reports, string(a.Action)) }}
	lines := [][]byte{call(1, "echo"), call(2, "search"), call(3, "gone"), call(4, "echo"), call(5, "bye"), call(6, "echo")}
	feed(t, s, append(bytes.Join(lines, []byte("\n")), '\n'), 5)
	if want := string(call(1, "echo")) + "\n" + string(call(4, "echo")) + "\n"; fwd.String() != want {
		t.Errorf("forwarded\n%s\nwant\n%s", fwd.String(), want)
	}
	if want := `{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"injected by mcpscope"}}` + "\n"; back.String() != want {
		t.Errorf("answered %q, want %q", back.String(), want)
	}
	if strings.Join(reports, " ") != "error drop disconnect" || closed != 1 {
		t.Errorf("reports %v, closed %d", reports, closed)
	}
}

// TestNoteRoundTrip: a fault's note says which message it concerns: the one that came
// (whatever its line breaks) or the one passed on instead, and no other.
func TestNoteRoundTrip(t *testing.T) {
	e := engine(t, 1, "corrupt=wrong-version dir:in")
	raw := []byte("{\"jsonrpc\":\"2.0\",\n \"id\":1,\"result\":{}}")
	v := e.Judge(in, raw, time.Now())
	n, ok := ParseNote(Describe(v.Applied))
	if !ok || n.Dir != in || !strings.HasPrefix(n.Summary, "corrupt wrong-version (rule 1") {
		t.Fatalf("note %+v, %v", n, ok)
	}
	if !n.Concerns(raw) || !n.Concerns(v.Deliver[0]) || n.Concerns(result(1)) {
		t.Errorf("concerns: original %v, delivered %v, another %v", n.Concerns(raw), n.Concerns(v.Deliver[0]), n.Concerns(result(1)))
	}
	big := append([]byte(`{"jsonrpc":"2.0","id":1,"result":{"x":"`), bytes.Repeat([]byte("é"), 5000)...)
	big = append(big, `"}}`...)
	v = engine(t, 1, "drop").Judge(in, big, time.Now())
	if n, _ := ParseNote(Describe(v.Applied)); !n.Concerns(big) || len(n.Original) > shownBytes+len("…") {
		t.Errorf("a large message: concerns %v, shown in %d bytes", n.Concerns(big), len(n.Original))
	}
	if _, ok := ParseNote("stream-end: stdout"); ok {
		t.Error("another note read as a fault's")
	}
}
