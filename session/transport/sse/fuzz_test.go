package sse

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// refEvent is what a browser dispatches.
type refEvent struct{ Type, Data, LastID string }

// reference interprets a whole stream the way the standard's algorithm reads, line by line,
// without streaming or size limits. It is the oracle for FuzzParser.
func reference(s string) (evs []refEvent, lastID string) {
	s = strings.TrimPrefix(s, "\xEF\xBB\xBF")
	var data, typ, idBuf strings.Builder
	for {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			return evs, lastID // an unterminated last line and any unfinished block are discarded
		}
		line := s[:i]
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		s = s[i+1:]
		switch {
		case line == "":
			lastID = idBuf.String()
			if data.Len() > 0 {
				d := strings.TrimSuffix(data.String(), "\n")
				t := typ.String()
				if t == "" {
					t = "message"
				}
				evs = append(evs, refEvent{t, d, lastID})
			}
			data.Reset()
			typ.Reset()
		case line[0] == ':':
		default:
			name, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch name {
			case "data":
				data.WriteString(value + "\n")
			case "event":
				typ.Reset()
				typ.WriteString(value)
			case "id":
				if !strings.Contains(value, "\x00") {
					idBuf.Reset()
					idBuf.WriteString(value)
				}
			}
		}
	}
}

func FuzzParser(f *testing.F) {
	for _, seed := range []string{
		"data: hello\n\n",
		"\xEF\xBB\xBFid: 1\r\nevent: x\r\ndata: a\r\ndata: b\r\n\r\n",
		"data: a\rdata: b\r\r: comment\r\rretry: 10\n\n",
		"id: a\x00b\ndata: x\n\nid\ndata\n\n",
		"data:\n\n\n\ndata: tail",
		"event: endpoint\ndata: /messages?sessionid=1\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\"}\n\n",
		"\r\n\r\n:\r\n\r\ndata:  x\n\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, input string) {
		wantEvs, wantLast := reference(input)
		for _, oneByte := range []bool{false, true} {
			var r io.Reader = strings.NewReader(input)
			if oneByte {
				r = iotest.OneByteReader(r)
			}
			p := NewParser(r, 0)
			var got []refEvent
			var raw strings.Builder
			for {
				ev, err := p.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatalf("Next: %v", err)
				}
				raw.Write(ev.Raw)
				if ev.Truncated || ev.Size != int64(len(ev.Raw)) {
					t.Fatalf("unexpected truncation: %+v", ev)
				}
				if ev.HasData {
					got = append(got, refEvent{ev.Type, ev.Data, p.LastEventID()})
				}
			}
			if raw.String()+string(p.Incomplete()) != input {
				t.Fatalf("raw bytes do not add up to the input: %q + %q", raw.String(), p.Incomplete())
			}
			if len(got) != len(wantEvs) {
				t.Fatalf("oneByte=%v: got %d events %q, want %d %q", oneByte, len(got), got, len(wantEvs), wantEvs)
			}
			for i := range got {
				if got[i] != wantEvs[i] {
					t.Fatalf("oneByte=%v event %d: got %q, want %q", oneByte, i, got[i], wantEvs[i])
				}
			}
			if p.LastEventID() != wantLast {
				t.Fatalf("LastEventID = %q, want %q", p.LastEventID(), wantLast)
			}
		}
		// A small limit bounds every event and never panics.
		p := NewParser(strings.NewReader(input), 16)
		for {
			ev, err := p.Next()
			if err != nil {
				break
			}
			if len(ev.Raw) > 16 || len(ev.Data) > 16 || ev.Size < int64(len(ev.Raw)) {
				t.Fatalf("limit exceeded: len(Raw)=%d len(Data)=%d Size=%d", len(ev.Raw), len(ev.Data), ev.Size)
			}
		}
	})
}
