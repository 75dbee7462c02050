package protocol

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func jsonValid(s string) bool { return json.Valid([]byte(s)) }

func FuzzDecode(f *testing.F) {
	seeds := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":0.5}}`,
		`{"jsonrpc":"2.0","id":"abc","result":{"content":[{"type":"text","text":"ok"}]}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`,
		`[]`,
		`Server started on port 3000`,
		"{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"t\":\"\xff\"}}",
		"\xc3\x28",
		`{"jsonrpc":"2.0","id":123456789012345678901234567890123,"result":{"n":1e400}}`,
		`{"jsonrpc":"2.0","id":-0,"result":{"n":-1.5E-7}}`,
		`{"jsonrpc":"2.0","id":1,"result":` + strings.Repeat(`{"a":[`, 500) + strings.Repeat(`]}`, 500) + `}`,
		strings.Repeat("[", 1000),
		`{"id":null,"result":{},"error":5,"method":7}`,
		`{"jsonrpc":"2.0","method":"a\u0000b","id":"\ud800"}`,
		``, " ", "\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		orig := bytes.Clone(raw)
		fr := Decode(raw)
		if fr == nil {
			t.Fatal("nil frame")
		}
		if !bytes.Equal(fr.Raw, orig) || !bytes.Equal(raw, orig) {
			t.Fatal("Raw is not byte-identical to the input")
		}
		checkFrameConsistent(t, fr)
		if fr.Kind == KindInvalid && len(fr.Findings) == 0 {
			t.Fatal("invalid frame without a finding")
		}
		// The scanner and encoding/json agree on which objects and arrays are JSON.
		trimmed := bytes.TrimSpace(raw)
		if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
			notJSON := false
			for _, fd := range fr.Findings {
				notJSON = notJSON || fd.Code == FindNotJSON
			}
			if notJSON == json.Valid(raw) {
				t.Fatalf("scanner says not-JSON=%v, encoding/json says valid=%v", notJSON, json.Valid(raw))
			}
		}
		_ = Check(fr, ServerToClient, CheckContext{Revision: Rev20260728, ClientCaps: raw, ServerCaps: raw})
		_ = DecodeTruncated(raw, int64(len(raw))*2)
	})
}

// checkFrameConsistent asserts that Kind agrees with the decoded members.
func checkFrameConsistent(t *testing.T, fr *Frame) {
	t.Helper()
	switch fr.Kind {
	case KindRequest:
		if fr.ID.IsZero() || fr.Method == "" && !bytes.Contains(fr.Raw, []byte(`"method"`)) {
			t.Fatalf("request without id or method: %+v", fr)
		}
	case KindNotification:
		if !fr.ID.IsZero() {
			t.Fatal("notification with an id")
		}
	case KindResult:
		if fr.Result == nil || fr.Error != nil {
			t.Fatal("result kind without result, or with error")
		}
	case KindError:
		if fr.Error == nil {
			t.Fatal("error kind without error")
		}
	case KindBatch:
		if len(fr.Batch) == 0 {
			t.Fatal("batch without members")
		}
		for _, m := range fr.Batch {
			if !bytes.Contains(fr.Raw, m.Raw) {
				t.Fatal("batch member Raw is not part of the batch")
			}
			if m.Kind == KindBatch {
				t.Fatal("nested batch")
			}
			checkFrameConsistent(t, m)
		}
	}
	if fr.Kind != KindBatch && fr.Batch != nil {
		t.Fatal("batch members on a non-batch frame")
	}
	for _, span := range [][]byte{fr.ID.Raw, fr.Params, fr.Result, fr.JSONRPC} {
		if span != nil && !json.Valid(span) {
			t.Fatalf("member span %q is not valid JSON", span)
		}
	}
}
