package sse

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// parseAll reads every event of input, one byte per read when oneByte is set.
func parseAll(t *testing.T, input string, max int, oneByte bool) ([]Event, *Parser) {
	t.Helper()
	var r io.Reader = strings.NewReader(input)
	if oneByte {
		r = iotest.OneByteReader(r)
	}
	p := NewParser(r, max)
	var evs []Event
	for {
		ev, err := p.Next()
		if errors.Is(err, io.EOF) {
			return evs, p
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		evs = append(evs, ev)
	}
}

// view is the comparable part of an Event.
type view struct {
	ID       string
	HasID    bool
	Type     string
	Data     string
	HasData  bool
	Retry    time.Duration
	HasRetry bool
	Comments string
	Raw      string
}

func viewOf(e Event) view {
	return view{e.ID, e.HasID, e.Type, e.Data, e.HasData, e.Retry, e.HasRetry, strings.Join(e.Comments, "|"), string(e.Raw)}
}

func TestParser(t *testing.T) {
	msg := func(data, raw string) view {
		return view{Type: "message", Data: data, HasData: true, Raw: raw}
	}
	tests := []struct {
		name   string
		input  string
		want   []view
		lastID string
	}{
		{"simple", "data: hello\n\n", []view{msg("hello", "data: hello\n\n")}, ""},
		{"bom stripped once", "\xEF\xBB\xBFdata: a\n\n", []view{msg("a", "\xEF\xBB\xBFdata: a\n\n")}, ""},
		{"second bom is part of the field name", "\xEF\xBB\xBF\xEF\xBB\xBFdata: a\n\n",
			[]view{{Type: "message", Raw: "\xEF\xBB\xBF\xEF\xBB\xBFdata: a\n\n"}}, ""},
		{"crlf", "data: a\r\ndata: b\r\n\r\n", []view{msg("a\nb", "data: a\r\ndata: b\r\n\r\n")}, ""},
		{"cr", "data: a\rdata: b\r\r", []view{msg("a\nb", "data: a\rdata: b\r\r")}, ""},
		{"mixed line ends", "data: a\r\ndata: b\rdata: c\n\r\n", []view{msg("a\nb\nc", "data: a\r\ndata: b\rdata: c\n\r\n")}, ""},
		{"one space stripped", "data:  two\n\n", []view{msg(" two", "data:  two\n\n")}, ""},
		{"no space", "data:x\n\n", []view{msg("x", "data:x\n\n")}, ""},
		{"tab kept", "data:\tx\n\n", []view{msg("\tx", "data:\tx\n\n")}, ""},
		{"field without colon", "data\n\n", []view{msg("", "data\n\n")}, ""},
		{"empty data dispatches", "id: 7\ndata:\n\n", []view{{ID: "7", HasID: true, Type: "message", HasData: true, Raw: "id: 7\ndata:\n\n"}}, "7"},
		{"multi-line data", "data: {\"a\":\ndata: 1}\n\n", []view{msg("{\"a\":\n1}", "data: {\"a\":\ndata: 1}\n\n")}, ""},
		{"data trailing empty line kept", "data: a\ndata:\n\n", []view{msg("a\n", "data: a\ndata:\n\n")}, ""},
		{"event type", "event: endpoint\ndata: /m\n\n", []view{{Type: "endpoint", Data: "/m", HasData: true, Raw: "event: endpoint\ndata: /m\n\n"}}, ""},
		{"empty event type means message", "event:\ndata: a\n\n", []view{{Type: "message", Data: "a", HasData: true, Raw: "event:\ndata: a\n\n"}}, ""},
		{"field names are case-sensitive", "Data: a\n\n", []view{{Type: "message", Raw: "Data: a\n\n"}}, ""},
		{"comment only", ": keep-alive\n\n", []view{{Type: "message", Comments: " keep-alive", Raw: ": keep-alive\n\n"}}, ""},
		{"comment among fields", "data: a\n:c\ndata: b\n\n", []view{{Type: "message", Data: "a\nb", HasData: true, Comments: "c", Raw: "data: a\n:c\ndata: b\n\n"}}, ""},
		{"retry only", "retry: 50\n\n", []view{{Type: "message", Retry: 50 * time.Millisecond, HasRetry: true, Raw: "retry: 50\n\n"}}, ""},
		{"retry not digits ignored", "retry: 5s\nretry: -1\nretry:\nretry: 1 0\n\n", []view{{Type: "message", Raw: "retry: 5s\nretry: -1\nretry:\nretry: 1 0\n\n"}}, ""},
		{"id with nul ignored", "id: 1\n\nid: a\x00b\ndata: x\n\n", []view{
			{ID: "1", HasID: true, Type: "message", Raw: "id: 1\n\n"},
			{Type: "message", Data: "x", HasData: true, Raw: "id: a\x00b\ndata: x\n\n"},
		}, "1"},
		{"id persists and resets", "id: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\n", []view{
			{ID: "1", HasID: true, Type: "message", Data: "a", HasData: true, Raw: "id: 1\ndata: a\n\n"},
			msg("b", "data: b\n\n"),
			{HasID: true, Type: "message", Data: "c", HasData: true, Raw: "id\ndata: c\n\n"},
		}, ""},
		{"incomplete event discarded", "data: a\n\ndata: b\n", []view{msg("a", "data: a\n\n")}, ""},
		{"incomplete id does not count", "id: 1\ndata: a\n\nid: 2\ndata: b", []view{
			{ID: "1", HasID: true, Type: "message", Data: "a", HasData: true, Raw: "id: 1\ndata: a\n\n"},
		}, "1"},
		{"leading blank lines go to the next block", "\n\r\n:x\n\n", []view{{Type: "message", Comments: "x", Raw: "\n\r\n:x\n\n"}}, ""},
		{"unknown field", "foo: bar\n\n", []view{{Type: "message", Raw: "foo: bar\n\n"}}, ""},
		{"invalid utf-8 kept", "data: \xff\n\n", []view{msg("\xff", "data: \xff\n\n")}, ""},
		{"colon in value", "data: a:b\n\n", []view{msg("a:b", "data: a:b\n\n")}, ""},
	}
	for _, tt := range tests {
		for _, oneByte := range []bool{false, true} {
			evs, p := parseAll(t, tt.input, 0, oneByte)
			if len(evs) != len(tt.want) {
				t.Fatalf("%s (oneByte=%v): got %d events %+v, want %d", tt.name, oneByte, len(evs), evs, len(tt.want))
			}
			var all strings.Builder
			for i := range evs {
				all.Write(evs[i].Raw)
				got, want := viewOf(evs[i]), tt.want[i]
				if oneByte {
					// A CRLF split across reads leaves its LF to the next block, so
					// compare the raw bytes as a whole below.
					got.Raw, want.Raw = "", ""
				}
				if got != want {
					t.Errorf("%s (oneByte=%v) event %d:\n got %+v\nwant %+v", tt.name, oneByte, i, got, tt.want[i])
				}
			}
			if all.String()+string(p.Incomplete()) != tt.input {
				t.Errorf("%s (oneByte=%v): raw bytes %q + %q do not add up to the input", tt.name, oneByte, all.String(), p.Incomplete())
			}
			if p.LastEventID() != tt.lastID {
				t.Errorf("%s: LastEventID = %q, want %q", tt.name, p.LastEventID(), tt.lastID)
			}
		}
	}
}

func TestParserCRLFSplitAcrossReads(t *testing.T) {
	// The CR that ends the block arrives in one read and its LF in the next: the event is
	// returned at once and the LF is counted with the following block.
	pr, pw := io.Pipe()
	p := NewParser(pr, 0)
	go func() {
		_, _ = pw.Write([]byte("data: a\r\n\r"))
		_, _ = pw.Write([]byte("\ndata: b\r\n\r\n"))
		_ = pw.Close()
	}()
	ev, err := p.Next()
	if err != nil || ev.Data != "a" || string(ev.Raw) != "data: a\r\n\r" {
		t.Fatalf("first = %+v, %v", ev, err)
	}
	ev, err = p.Next()
	if err != nil || ev.Data != "b" || string(ev.Raw) != "\ndata: b\r\n\r\n" {
		t.Fatalf("second = %+v, %v", ev, err)
	}
	if _, err := p.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("want EOF, got %v", err)
	}
}

func TestParserTruncates(t *testing.T) {
	big := strings.Repeat("x", 1000)
	input := "id: 9\ndata: " + big + "\ndata: " + big + "\n\ndata: small\n\n"
	evs, p := parseAll(t, input, 100, false)
	if len(evs) != 2 {
		t.Fatalf("got %d events", len(evs))
	}
	e := evs[0]
	if !e.Truncated || len(e.Raw) != 100 || len(e.Data) > 100 || e.Size != int64(strings.Index(input, "data: small")) {
		t.Errorf("truncated event: Truncated=%v len(Raw)=%d len(Data)=%d Size=%d", e.Truncated, len(e.Raw), len(e.Data), e.Size)
	}
	if e.ID != "9" || !e.HasData {
		t.Errorf("truncated event lost its fields: %+v", viewOf(e))
	}
	if evs[1].Truncated || evs[1].Data != "small" {
		t.Errorf("next event: %+v", viewOf(evs[1]))
	}
	if p.LastEventID() != "9" {
		t.Errorf("LastEventID = %q", p.LastEventID())
	}
}

func TestParserIncompleteAndStickyError(t *testing.T) {
	evs, p := parseAll(t, "data: a\n\ndata: part", 0, false)
	if len(evs) != 1 || string(p.Incomplete()) != "data: part" {
		t.Fatalf("events %d, incomplete %q", len(evs), p.Incomplete())
	}
	if _, err := p.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("second call after EOF: %v", err)
	}
	p = NewParser(iotest.TimeoutReader(strings.NewReader("data: a\n\n")), 0)
	if _, err := p.Next(); err != nil {
		t.Fatalf("first: %v", err)
	}
	if _, err := p.Next(); !errors.Is(err, iotest.ErrTimeout) {
		t.Fatalf("want reader error, got %v", err)
	}
}

func TestParseRetryClamps(t *testing.T) {
	evs, _ := parseAll(t, "retry: 99999999999999999999999\n\n", 0, false)
	if len(evs) != 1 || !evs[0].HasRetry || evs[0].Retry <= 0 {
		t.Fatalf("got %+v", evs)
	}
}
