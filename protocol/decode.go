package protocol

import (
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Decode classifies one message leniently. It never panics and never returns nil. Raw is
// raw itself (not a copy), and every json.RawMessage in the frame is a sub-slice of raw with
// its capacity clipped, so appending to one cannot overwrite the rest. The caller must not
// modify raw afterwards.
//
// Problems become Findings instead of errors: a frame that is not a message at all has
// Kind KindInvalid and says why. A JSON array is a batch: each element is decoded on its
// own into Batch, with its own Raw sub-slice and its own findings; an empty array is
// invalid.
func Decode(raw []byte) *Frame {
	f := &Frame{Raw: raw}
	if !utf8.Valid(raw) {
		f.add(NewFinding(FindInvalidUTF8, "the message contains bytes that are not valid UTF-8"))
	}
	i := skipSpace(raw, 0)
	if i == len(raw) {
		if len(raw) == 0 {
			f.add(NewFinding(FindEmptyLine, "empty line"))
		} else {
			f.add(NewFinding(FindEmptyLine, "line holds only white space"))
		}
		return f
	}
	switch raw[i] {
	case '{':
		decodeObject(f, raw, i)
	case '[':
		decodeBatch(f, raw, i)
	default:
		end, err := skipValue(raw, i)
		if err == nil && skipSpace(raw, end) == len(raw) {
			f.add(NewFinding(FindNotObject, "a JSON %s, not a JSON-RPC message object", JSONType(raw[i:end])))
			return f
		}
		f.add(NewFinding(FindNotJSON, "not JSON: %s", previewLine(raw)))
	}
	return f
}

// DecodeTruncated describes a frame that exceeded the size limit: head is its beginning and
// size its full length on the wire. The frame is KindInvalid with a FindTooLarge finding.
// Members that are complete within head (typically jsonrpc, id and method, which come first)
// are still filled in, so a session can tell which request the oversized response answers.
func DecodeTruncated(head []byte, size int64) *Frame {
	f := &Frame{Raw: head}
	f.add(NewFinding(FindTooLarge, "frame of %d bytes is over the size limit; only the first %d bytes were kept",
		size, len(head)))
	i := skipSpace(head, 0)
	if i < len(head) && head[i] == '{' {
		var p parsed
		eachMember(head, i, p.take)
		f.ID, f.JSONRPC = p.id, p.jsonrpc
		if p.method != nil {
			f.Method, _ = stringValue(p.method)
		}
	}
	return f
}

func (f *Frame) add(fd Finding) { f.Findings = append(f.Findings, fd) }

// parsed collects the top-level members of a message object.
type parsed struct {
	jsonrpc, method, params, result, errv []byte
	id                                    ID
	extra                                 map[string]json.RawMessage
	dups                                  []string
	depth                                 int   // deepest member value
	seen                                  uint8 // bit per known member, for duplicate detection
}

const (
	seenJSONRPC = 1 << iota
	seenID
	seenMethod
	seenParams
	seenResult
	seenError
)

func (p *parsed) mark(bit uint8, name string) {
	if p.seen&bit != 0 {
		p.dups = append(p.dups, name)
	}
	p.seen |= bit
}

// take records one member; a duplicate keeps the last value, as JavaScript parsers do.
func (p *parsed) take(m member) {
	p.depth = max(p.depth, m.depth)
	switch {
	case m.is("jsonrpc"):
		p.mark(seenJSONRPC, "jsonrpc")
		p.jsonrpc = m.val
	case m.is("id"):
		p.mark(seenID, "id")
		p.id = ID{Raw: m.val}
	case m.is("method"):
		p.mark(seenMethod, "method")
		p.method = m.val
	case m.is("params"):
		p.mark(seenParams, "params")
		p.params = m.val
	case m.is("result"):
		p.mark(seenResult, "result")
		p.result = m.val
	case m.is("error"):
		p.mark(seenError, "error")
		p.errv = m.val
	default:
		name := m.name()
		if p.extra == nil {
			p.extra = make(map[string]json.RawMessage, 2)
		} else if _, dup := p.extra[name]; dup {
			p.dups = append(p.dups, name)
		}
		p.extra[name] = m.val
	}
}

func decodeObject(f *Frame, raw []byte, i int) {
	var p parsed
	end, err := eachMember(raw, i, p.take)
	if err == nil && skipSpace(raw, end) != len(raw) {
		err = errAt(raw, skipSpace(raw, end), "end of input")
	}
	if err != nil {
		f.add(NewFinding(FindNotJSON, "not valid JSON: %s", err.Error()))
		return
	}
	f.JSONRPC, f.ID, f.Params, f.Result, f.Extra = p.jsonrpc, p.id, p.params, p.result, p.extra
	if depth := p.depth + 1; depth > MaxNesting {
		f.add(NewFinding(FindTooDeep, "the message nests %d levels deep, beyond the %d levels JSON decoders accept; it is kept and shown as received", depth, MaxNesting))
	}
	for _, d := range p.dups {
		f.add(NewFinding(FindDuplicateKey, "member %q appears more than once; the last one is used", d))
	}
	if p.extra != nil { // only an unknown member can fold onto another one
		for _, k := range AmbiguousKeys(raw[i:end]) {
			if !slices.Contains(p.dups, k) {
				f.add(NewFinding(FindAmbiguousKey, "member %q is sent again under another case; a receiver that folds case may read either", k))
			}
		}
	}
	if len(p.params) > 0 && p.params[0] == '{' {
		for _, k := range AmbiguousKeys(p.params) {
			f.add(NewFinding(FindAmbiguousKey, "params member %q is sent twice or again under another case; mcpscope reads the exact key, a receiver may read the other", k))
		}
	}
	checkVersion(f)

	methodOK := false
	if p.method != nil {
		if f.Method, methodOK = stringValue(p.method); !methodOK {
			f.add(NewFinding(FindMethodType, "method is a %s, not a string", JSONType(p.method)))
		}
	}
	if p.errv != nil {
		f.Error = decodeError(f, p.errv)
	}
	if p.params != nil && p.params[0] != '{' && p.params[0] != '[' {
		f.add(NewFinding(FindParamsType, "params is a %s, not an object", JSONType(p.params)))
	}

	switch {
	case p.method != nil:
		if !methodOK {
			f.Kind = KindInvalid
			break
		}
		if f.ID.IsZero() {
			f.Kind = KindNotification
		} else {
			f.Kind = KindRequest
			checkID(f, "request")
		}
		if p.result != nil || p.errv != nil {
			f.add(NewFinding(FindMixedShape, "a %s that also carries a result or error member", f.Kind))
		}
	case p.result != nil && p.errv != nil:
		f.Kind = KindError
		f.add(NewFinding(FindResultAndError, "response has both result and error; treated as an error"))
		checkID(f, "response")
	case p.errv != nil:
		f.Kind = KindError
		checkID(f, "error response")
	case p.result != nil:
		f.Kind = KindResult
		if f.ID.IsZero() {
			f.add(NewFinding(FindMissingID, "result has no id, so it cannot be matched to a request"))
		} else {
			checkID(f, "response")
		}
		if p.result[0] != '{' {
			f.add(NewFinding(FindResultType, "result is a %s, not an object", JSONType(p.result)))
		}
	case !f.ID.IsZero():
		f.Kind = KindInvalid
		f.add(NewFinding(FindNoResultOrError, "response with id %s has neither result nor error", f.ID))
		checkID(f, "response")
	default:
		f.Kind = KindInvalid
		f.add(NewFinding(FindNotMessage, "object has no method, result or error member"))
	}
}

func checkVersion(f *Frame) {
	switch {
	case f.JSONRPC == nil:
		f.add(NewFinding(FindJSONRPCVersion, `"jsonrpc" member is missing; it must be "2.0"`))
	case string(f.JSONRPC) == `"2.0"`:
	default:
		if s, ok := stringValue(f.JSONRPC); !ok || s != "2.0" {
			f.add(NewFinding(FindJSONRPCVersion, `"jsonrpc" is %s; it must be "2.0"`, clip(f.JSONRPC, 40)))
		}
	}
}

// checkID reports ids that MCP does not allow on this kind of message.
func checkID(f *Frame, what string) {
	switch k := f.ID.Kind(); k {
	case IDString, IDInteger, IDAbsent:
	case IDNull:
		if f.Kind != KindError {
			f.add(NewFinding(FindIDType, "%s id is null; MCP ids must be a string or an integer", what))
		}
	case IDFractional:
		f.add(NewFinding(FindIDType, "%s id %s is not an integer; MCP ids must be a string or an integer",
			what, clip(f.ID.Raw, 40)))
	default:
		f.add(NewFinding(FindIDType, "%s id is a %s; ids must be a string or an integer",
			what, JSONType(f.ID.Raw)))
	}
}

// decodeError reads an error member leniently, reporting what is wrong with it.
func decodeError(f *Frame, v []byte) *ErrorObject {
	e := &ErrorObject{Raw: v}
	if v[0] != '{' {
		f.add(NewFinding(FindErrorObject, "error is a %s, not an object", JSONType(v)))
		return e
	}
	var code, msg []byte
	eachMember(v, 0, func(m member) {
		switch {
		case m.is("code"):
			code = m.val
		case m.is("message"):
			msg = m.val
		case m.is("data"):
			e.Data = m.val
		}
	})
	switch {
	case code == nil:
		f.add(NewFinding(FindErrorCode, "error has no code"))
	case ID{Raw: code}.Kind() == IDInteger:
		n, err := strconv.ParseInt(string(code), 10, 64)
		if err != nil {
			f.add(NewFinding(FindErrorCode, "error code %s does not fit in 64 bits", clip(code, 40)))
		} else {
			e.Code, e.CodeOK = n, true
		}
	default:
		f.add(NewFinding(FindErrorCode, "error code is %s, not an integer", clip(code, 40)))
	}
	if msg == nil {
		f.add(NewFinding(FindErrorMessage, "error has no message"))
	} else if e.Message, e.MessageOK = stringValue(msg); !e.MessageOK {
		f.add(NewFinding(FindErrorMessage, "error message is a %s, not a string", JSONType(msg)))
	}
	return e
}

func decodeBatch(f *Frame, raw []byte, i int) {
	end, err := skipValue(raw, i)
	if err == nil && skipSpace(raw, end) != len(raw) {
		err = errAt(raw, skipSpace(raw, end), "end of input")
	}
	if err != nil {
		f.add(NewFinding(FindNotJSON, "not valid JSON: %s", err.Error()))
		return
	}
	elems, _ := ArrayElements(raw)
	for _, e := range elems {
		f.Batch = append(f.Batch, decodeElement(e))
	}
	if len(f.Batch) == 0 {
		f.Kind = KindInvalid
		f.add(NewFinding(FindEmptyBatch, "empty batch: an array with no messages"))
		return
	}
	f.Kind = KindBatch
}

// decodeElement decodes one batch element; UTF-8 was already checked for the whole batch.
func decodeElement(raw []byte) *Frame {
	f := &Frame{Raw: raw}
	if raw[0] == '{' {
		decodeObject(f, raw, 0)
	} else {
		f.add(NewFinding(FindNotObject, "batch element is a %s, not a message object", JSONType(raw)))
	}
	return f
}

// JSONType names the JSON type of a valid value span: object, array, string, boolean, null,
// number ("nothing" for an empty span).
func JSONType(v []byte) string {
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// clip shortens b for a message, keeping it valid UTF-8.
func clip(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return string(b[:n]) + "…"
}

// previewLine quotes the start of a non-JSON line.
func previewLine(raw []byte) string {
	return strconv.Quote(clip(raw, 60))
}
