package protocol

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func codes(fs []Finding) []string {
	out := make([]string, 0, len(fs))
	for _, f := range fs {
		out = append(out, f.Code)
	}
	slices.Sort(out)
	return out
}

func wantCodes(t *testing.T, got []Finding, want ...string) {
	t.Helper()
	slices.Sort(want)
	if g := codes(got); !slices.Equal(g, want) {
		t.Errorf("findings = %v, want %v (%v)", g, want, got)
	}
}

func TestDecodeClassify(t *testing.T) {
	tests := []struct {
		name   string
		raw    string
		kind   Kind
		id     string
		idKind IDKind
		method string
		codes  []string
	}{
		{"request int id", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, KindRequest, "1", IDInteger, "ping", nil},
		{"request string id", `{"jsonrpc":"2.0","id":"a-1","method":"tools/list","params":{}}`, KindRequest, `"a-1"`, IDString, "tools/list", nil},
		{"request negative id", `{"jsonrpc":"2.0","id":-7,"method":"ping"}`, KindRequest, "-7", IDInteger, "ping", nil},
		{"request huge id", `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}`, KindRequest, "123456789012345678901234567890", IDInteger, "ping", nil},
		{"request fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, KindRequest, "1.5", IDFractional, "ping", []string{FindIDType}},
		{"request exponent id", `{"jsonrpc":"2.0","id":1e3,"method":"ping"}`, KindRequest, "1e3", IDFractional, "ping", []string{FindIDType}},
		{"request null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, KindRequest, "null", IDNull, "ping", []string{FindIDType}},
		{"request object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, KindRequest, `{"a":1}`, IDOther, "ping", []string{FindIDType}},
		{"request array id", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, KindRequest, `[1]`, IDOther, "ping", []string{FindIDType}},
		{"request bool id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, KindRequest, `true`, IDOther, "ping", []string{FindIDType}},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, KindNotification, "", IDAbsent, "notifications/initialized", nil},
		{"notification escaped method", `{"jsonrpc":"2.0","method":"notifications\/progress"}`, KindNotification, "", IDAbsent, "notifications/progress", nil},
		{"result", `{"jsonrpc":"2.0","id":3,"result":{}}`, KindResult, "3", IDInteger, "", nil},
		{"result with spaces", " \t{ \"jsonrpc\" : \"2.0\" , \"id\" : 3 , \"result\" : { } }\r\n", KindResult, "3", IDInteger, "", nil},
		{"result null id", `{"jsonrpc":"2.0","id":null,"result":{}}`, KindResult, "null", IDNull, "", []string{FindIDType}},
		{"result no id", `{"jsonrpc":"2.0","result":{}}`, KindResult, "", IDAbsent, "", []string{FindMissingID}},
		{"result not object", `{"jsonrpc":"2.0","id":3,"result":[]}`, KindResult, "3", IDInteger, "", []string{FindResultType}},
		{"error", `{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found"}}`, KindError, "3", IDInteger, "", nil},
		{"error null id", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`, KindError, "null", IDNull, "", nil},
		{"error without id", `{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}`, KindError, "", IDAbsent, "", nil},
		{"error code string", `{"jsonrpc":"2.0","id":3,"error":{"code":"E1","message":"m"}}`, KindError, "3", IDInteger, "", []string{FindErrorCode}},
		{"error code fractional", `{"jsonrpc":"2.0","id":3,"error":{"code":1.5,"message":"m"}}`, KindError, "3", IDInteger, "", []string{FindErrorCode}},
		{"error code too big", `{"jsonrpc":"2.0","id":3,"error":{"code":99999999999999999999,"message":"m"}}`, KindError, "3", IDInteger, "", []string{FindErrorCode}},
		{"error code missing", `{"jsonrpc":"2.0","id":3,"error":{"message":"m"}}`, KindError, "3", IDInteger, "", []string{FindErrorCode}},
		{"error message missing", `{"jsonrpc":"2.0","id":3,"error":{"code":1}}`, KindError, "3", IDInteger, "", []string{FindErrorMessage}},
		{"error message number", `{"jsonrpc":"2.0","id":3,"error":{"code":1,"message":5}}`, KindError, "3", IDInteger, "", []string{FindErrorMessage}},
		{"error not object", `{"jsonrpc":"2.0","id":3,"error":"boom"}`, KindError, "3", IDInteger, "", []string{FindErrorObject}},
		{"result and error", `{"jsonrpc":"2.0","id":3,"result":{},"error":{"code":1,"message":"m"}}`, KindError, "3", IDInteger, "", []string{FindResultAndError}},
		{"neither result nor error", `{"jsonrpc":"2.0","id":3}`, KindInvalid, "3", IDInteger, "", []string{FindNoResultOrError}},
		{"no jsonrpc", `{"id":1,"method":"ping"}`, KindRequest, "1", IDInteger, "ping", []string{FindJSONRPCVersion}},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, KindRequest, "1", IDInteger, "ping", []string{FindJSONRPCVersion}},
		{"jsonrpc number", `{"jsonrpc":2.0,"id":1,"method":"ping"}`, KindRequest, "1", IDInteger, "ping", []string{FindJSONRPCVersion}},
		{"jsonrpc escaped", `{"jsonrpc":"2\u002e0","id":1,"method":"ping"}`, KindRequest, "1", IDInteger, "ping", nil},
		{"method not string", `{"jsonrpc":"2.0","id":1,"method":5}`, KindInvalid, "1", IDInteger, "", []string{FindMethodType}},
		{"params string", `{"jsonrpc":"2.0","id":1,"method":"x","params":"a"}`, KindRequest, "1", IDInteger, "x", []string{FindParamsType}},
		{"params array", `{"jsonrpc":"2.0","id":1,"method":"x","params":[1]}`, KindRequest, "1", IDInteger, "x", nil},
		{"request with result", `{"jsonrpc":"2.0","id":1,"method":"x","result":{}}`, KindRequest, "1", IDInteger, "x", []string{FindMixedShape}},
		{"duplicate id", `{"jsonrpc":"2.0","id":1,"id":2,"method":"x"}`, KindRequest, "2", IDInteger, "x", []string{FindDuplicateKey}},
		{"duplicate extra", `{"jsonrpc":"2.0","method":"x","z":1,"z":2}`, KindNotification, "", IDAbsent, "x", []string{FindDuplicateKey}},
		{"escaped member names", `{"jsonrpc":"2.0","\u0069d":1,"m\u0065thod":"ping","\u0078":1}`, KindRequest, "1", IDInteger, "ping", nil},
		{"long banner", strings.Repeat("Starting server… ", 20), KindInvalid, "", IDAbsent, "", []string{FindNotJSON}},
		{"empty object", `{}`, KindInvalid, "", IDAbsent, "", []string{FindJSONRPCVersion, FindNotMessage}},
		{"banner", `Server listening on stdio`, KindInvalid, "", IDAbsent, "", []string{FindNotJSON}},
		{"truncated object", `{"jsonrpc":"2.0","id":1,"method":"x"`, KindInvalid, "", IDAbsent, "", []string{FindNotJSON}},
		{"trailing garbage", `{"jsonrpc":"2.0","id":1,"method":"x"} hello`, KindInvalid, "", IDAbsent, "", []string{FindNotJSON}},
		{"two objects", `{"jsonrpc":"2.0","method":"x"}{"jsonrpc":"2.0","method":"y"}`, KindInvalid, "", IDAbsent, "", []string{FindNotJSON}},
		{"bad escape", `{"jsonrpc":"2.0","method":"\q"}`, KindInvalid, "", IDAbsent, "", []string{FindNotJSON}},
		{"control char", "{\"jsonrpc\":\"2.0\",\"method\":\"a\tb\"}", KindInvalid, "", IDAbsent, "", []string{FindNotJSON}},
		{"bad number", `{"jsonrpc":"2.0","id":01,"method":"x"}`, KindInvalid, "", IDAbsent, "", []string{FindNotJSON}},
		{"scalar", `42`, KindInvalid, "", IDAbsent, "", []string{FindNotObject}},
		{"string", `"hello"`, KindInvalid, "", IDAbsent, "", []string{FindNotObject}},
		{"empty line", ``, KindInvalid, "", IDAbsent, "", []string{FindEmptyLine}},
		{"blank line", " \r", KindInvalid, "", IDAbsent, "", []string{FindEmptyLine}},
		{"invalid utf8 in string", "{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"t\":\"\xff\xfe\"}}", KindNotification, "", IDAbsent, "x", []string{FindInvalidUTF8}},
		{"invalid utf8 not json", "\xff\xfe banner", KindInvalid, "", IDAbsent, "", []string{FindInvalidUTF8, FindNotJSON}},
		{"empty batch", `[]`, KindInvalid, "", IDAbsent, "", []string{FindEmptyBatch}},
		{"empty batch spaced", `[ ]`, KindInvalid, "", IDAbsent, "", []string{FindEmptyBatch}},
		{"broken batch", `[{"jsonrpc":"2.0","method":"x"},`, KindInvalid, "", IDAbsent, "", []string{FindNotJSON}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Decode([]byte(tt.raw))
			if f.Kind != tt.kind {
				t.Errorf("kind = %v, want %v", f.Kind, tt.kind)
			}
			if f.ID.String() != tt.id || f.ID.Kind() != tt.idKind {
				t.Errorf("id = %q (%v), want %q (%v)", f.ID, f.ID.Kind(), tt.id, tt.idKind)
			}
			if f.Method != tt.method {
				t.Errorf("method = %q, want %q", f.Method, tt.method)
			}
			if string(f.Raw) != tt.raw {
				t.Errorf("raw changed: %q", f.Raw)
			}
			wantCodes(t, f.Findings, tt.codes...)
			for _, fd := range f.Findings {
				if fd.Message == "" || Explain(fd.Code) == "" {
					t.Errorf("finding %s lacks a message or an explanation", fd.Code)
				}
			}
		})
	}
}

func TestDecodeMembers(t *testing.T) {
	raw := []byte(`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"a"},"_vendor":{"k":[1,2]},"trace":"t1"}`)
	f := Decode(raw)
	if &f.Raw[0] != &raw[0] || len(f.Raw) != len(raw) {
		t.Fatal("Raw is not the input slice")
	}
	if got := string(f.Params); got != `{"name":"a"}` {
		t.Errorf("params = %s", got)
	}
	if string(f.JSONRPC) != `"2.0"` {
		t.Errorf("jsonrpc = %s", f.JSONRPC)
	}
	if len(f.Extra) != 2 || string(f.Extra["_vendor"]) != `{"k":[1,2]}` || string(f.Extra["trace"]) != `"t1"` {
		t.Errorf("extra = %v", f.Extra)
	}
	// Spans alias raw but cannot grow into it.
	p := append(f.Params, 'X')
	if !bytes.Equal(f.Raw, []byte(`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"a"},"_vendor":{"k":[1,2]},"trace":"t1"}`)) || string(p) != `{"name":"a"}X` {
		t.Error("appending to a span changed Raw")
	}

	e := Decode([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unknown tool: \"x\"","data":{"tool":"x"},"extra":1}}`))
	if e.Error == nil || !e.Error.CodeOK || e.Error.Code != InvalidParams || !e.Error.MessageOK ||
		e.Error.Message != `Unknown tool: "x"` || string(e.Error.Data) != `{"tool":"x"}` {
		t.Errorf("error = %+v", e.Error)
	}
	if !strings.Contains(string(e.Error.Raw), `"extra":1`) {
		t.Errorf("error raw = %s", e.Error.Raw)
	}
	r := Decode([]byte(`{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]}}`))
	if string(r.Result) != `{"resultType":"complete","content":[]}` {
		t.Errorf("result = %s", r.Result)
	}
}

func TestDecodeBatch(t *testing.T) {
	raw := []byte(` [ {"jsonrpc":"2.0","id":1,"method":"ping"} , {"jsonrpc":"2.0","method":"notifications/initialized"},
		{"jsonrpc":"2.0","id":"r","result":{}}, 7, [1], {"jsonrpc":"2.0","id":2,"error":{"code":1}} ] `)
	f := Decode(raw)
	if f.Kind != KindBatch || len(f.Batch) != 6 {
		t.Fatalf("kind %v with %d members", f.Kind, len(f.Batch))
	}
	wantCodes(t, f.Findings)
	want := []struct {
		kind  Kind
		raw   string
		codes []string
	}{
		{KindRequest, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, nil},
		{KindNotification, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil},
		{KindResult, `{"jsonrpc":"2.0","id":"r","result":{}}`, nil},
		{KindInvalid, `7`, []string{FindNotObject}},
		{KindInvalid, `[1]`, []string{FindNotObject}},
		{KindError, `{"jsonrpc":"2.0","id":2,"error":{"code":1}}`, []string{FindErrorMessage}},
	}
	for i, w := range want {
		m := f.Batch[i]
		if m.Kind != w.kind || string(m.Raw) != w.raw {
			t.Errorf("member %d = %v %s, want %v %s", i, m.Kind, m.Raw, w.kind, w.raw)
		}
		wantCodes(t, m.Findings, w.codes...)
	}
}

func TestDecodeTruncated(t *testing.T) {
	head := []byte(`{"jsonrpc":"2.0","id":17,"result":{"content":[{"type":"text","text":"aaaa`)
	f := DecodeTruncated(head, 50<<20)
	if f.Kind != KindInvalid || &f.Raw[0] != &head[0] {
		t.Fatalf("kind %v", f.Kind)
	}
	wantCodes(t, f.Findings, FindTooLarge)
	if !strings.Contains(f.Findings[0].Message, "52428800") {
		t.Errorf("message does not give the size: %s", f.Findings[0].Message)
	}
	if f.ID.String() != "17" || string(f.JSONRPC) != `"2.0"` || f.Result != nil {
		t.Errorf("partial members: id=%s jsonrpc=%s result=%s", f.ID, f.JSONRPC, f.Result)
	}
	g := DecodeTruncated([]byte("not json at all"), 1e9)
	if g.Kind != KindInvalid || !g.ID.IsZero() {
		t.Errorf("banner head: %+v", g)
	}
}

func TestDeepNesting(t *testing.T) {
	deep := `{"jsonrpc":"2.0","id":1,"result":{"a":` + strings.Repeat("[", 200000) + strings.Repeat("]", 200000) + `}}`
	if f := Decode([]byte(deep)); f.Kind != KindResult {
		t.Errorf("deep result: %v %v", f.Kind, f.Findings)
	}
	unbalanced := strings.Repeat("[", 100000)
	if f := Decode([]byte(unbalanced)); f.Kind != KindInvalid {
		t.Errorf("unbalanced: %v", f.Kind)
	}
}

// TestScannerAgreesWithEncodingJSON checks the validity verdict of the scanner on inputs
// that exercise every grammar rule.
func TestScannerAgreesWithEncodingJSON(t *testing.T) {
	inputs := []string{
		`0`, `-0`, `-`, `01`, `1.`, `1.0`, `1e`, `1e+`, `1E-5`, `-1.5e10`, `.5`, `+1`,
		`"a"`, `"\u00e9"`, `"\u00g9"`, `"\/"`, `"\x"`, `"abc`, `true`, `tru`, `null`, `nul`, `false`,
		`[]`, `[1,]`, `[,1]`, `[1 2]`, `{}`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{a:1}`, `{"a":1 "b":2}`,
		`[{"a":[{"b":{}}]}]`, `[[[]]]`, `{"a":[}`, `[{]`, `{"a":{"b":[1,{"c":null}]}}`, "\"\x01\"",
	}
	for _, in := range inputs {
		end, err := skipValue([]byte(in), 0)
		ours := err == nil && end == len(in)
		if theirs := jsonValid(in); ours != theirs {
			t.Errorf("%q: scanner says %v, encoding/json says %v", in, ours, theirs)
		}
	}
}
