package recordings

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/session"
)

// errUnencodable reports a line appendEventLine cannot write as encoding/json would: a
// value encoding/json refuses (a time outside RFC 3339, a NaN or infinite number, an id
// that is not valid JSON). The caller encodes such a line with encoding/json, which
// reports the precise error.
var errUnencodable = errors.New("line needs encoding/json")

// appendEventLine appends l as one recording line, newline included: byte for byte what
// a json.Encoder with HTML escaping off writes for it (member order, omitempty, string
// escaping, number and time formats, sorted header names). On error dst is returned as
// it was given, and encodeLineJSON gives the reference result.
func appendEventLine(dst []byte, l *line) ([]byte, error) {
	n0 := len(dst)
	j := &l.EventJSON
	dst = append(dst, `{"seq":`...)
	dst = strconv.AppendUint(dst, j.Seq, 10)
	dst = append(dst, `,"time":"`...)
	t, err := j.Time.AppendText(dst)
	if err != nil {
		return dst[:n0], errUnencodable
	}
	dst = append(t, '"')
	dst = append(dst, `,"kind":`...)
	dst = appendString(dst, j.Kind)
	dst = appendStringMember(dst, `,"dir":`, j.Dir)
	dst = appendStringMember(dst, `,"lane":`, j.Lane)
	dst = appendStringMember(dst, `,"frame":`, j.FrameKind)
	dst = appendStringMember(dst, `,"method":`, j.Method)
	if len(j.ID) > 0 {
		dst = append(dst, `,"id":`...)
		if dst, err = appendCompact(dst, j.ID); err != nil {
			return dst[:n0], err
		}
	}
	if j.Raw != nil {
		dst = append(dst, `,"raw":`...)
		dst = appendString(dst, *j.Raw)
	}
	dst = appendStringMember(dst, `,"raw_base64":`, j.RawBase64)
	if j.Size != 0 {
		dst = append(dst, `,"size":`...)
		dst = strconv.AppendInt(dst, j.Size, 10)
	}
	if j.Masked {
		dst = append(dst, `,"masked":true`...)
	}
	if j.Truncated {
		dst = append(dst, `,"truncated":true`...)
	}
	dst = appendStringMember(dst, `,"via":`, j.Via)
	dst = appendStringMember(dst, `,"sse_id":`, j.SSEID)
	if len(j.Findings) > 0 {
		dst = append(dst, `,"findings":[`...)
		for i := range j.Findings {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendFinding(dst, &j.Findings[i])
		}
		dst = append(dst, ']')
	}
	dst = appendUintMember(dst, `,"request_seq":`, j.Request)
	if j.LatencyMS != 0 {
		dst = append(dst, `,"latency_ms":`...)
		if dst, err = appendFloat(dst, j.LatencyMS); err != nil {
			return dst[:n0], err
		}
	}
	dst = appendUintMember(dst, `,"chain_seq":`, j.Chain)
	if j.Probe {
		dst = append(dst, `,"probe":true`...)
	}
	dst = appendUintMember(dst, `,"app_seq":`, j.AppSeq)
	if p := j.Progress; p != nil {
		if dst, err = appendProgress(append(dst, `,"progress":`...), p); err != nil {
			return dst[:n0], err
		}
	}
	dst = appendStringMember(dst, `,"text":`, j.Text)
	dst = appendStringMember(dst, `,"note":`, j.Note)
	dst = appendStringMember(dst, `,"state":`, j.State)
	if h := j.HTTP; h != nil {
		if dst, err = appendHTTP(append(dst, `,"http":`...), h); err != nil {
			return dst[:n0], err
		}
	}
	if x := j.Exit; x != nil {
		dst = appendExit(append(dst, `,"exit":`...), x)
	}
	if g := j.Gap; g != nil {
		dst = appendGap(append(dst, `,"gap":`...), g)
	}
	dst = append(dst, `,"mono_ns":`...)
	dst = strconv.AppendInt(dst, l.MonoNS, 10)
	if l.Gen != 0 {
		dst = append(dst, `,"gen":`...)
		dst = strconv.AppendInt(dst, int64(l.Gen), 10)
	}
	dst = appendUintMember(dst, `,"exchange":`, l.Exchange)
	dst = appendStringMember(dst, `,"sse_event":`, l.SSEEvent)
	return append(dst, '}', '\n'), nil
}

// encodeLineJSON appends l as the Writer's json.Encoder (HTML escaping off) encodes it:
// the reference for appendEventLine, and the path for the lines it declines.
func encodeLineJSON(dst []byte, l *line) ([]byte, error) {
	c := *l // l itself stays off the heap in callers
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&c); err != nil {
		return dst, err
	}
	return append(dst, b.Bytes()...), nil
}

// appendStringMember appends a string member that has omitempty: nothing when s is empty.
func appendStringMember(dst []byte, key, s string) []byte {
	if s == "" {
		return dst
	}
	return appendString(append(dst, key...), s)
}

// appendUintMember appends an integer member that has omitempty: nothing when n is 0.
func appendUintMember(dst []byte, key string, n uint64) []byte {
	if n == 0 {
		return dst
	}
	return strconv.AppendUint(append(dst, key...), n, 10)
}

func appendFinding(dst []byte, f *session.FindingJSON) []byte {
	dst = append(dst, `{"code":`...)
	dst = appendString(dst, f.Code)
	dst = append(dst, `,"message":`...)
	dst = appendString(dst, f.Message)
	dst = append(dst, `,"severity":`...)
	dst = appendString(dst, f.Severity)
	if f.Member != 0 {
		dst = append(dst, `,"batch_member":`...)
		dst = strconv.AppendInt(dst, int64(f.Member), 10)
	}
	return append(dst, '}')
}

// appendProgress appends a session.Progress, which has no JSON tags: every field, by its
// Go name.
func appendProgress(dst []byte, p *session.Progress) ([]byte, error) {
	var err error
	dst = append(dst, `{"Token":`...)
	dst = appendString(dst, p.Token)
	dst = append(dst, `,"Progress":`...)
	if dst, err = appendFloat(dst, p.Progress); err != nil {
		return dst, err
	}
	dst = append(dst, `,"Total":`...)
	if dst, err = appendFloat(dst, p.Total); err != nil {
		return dst, err
	}
	dst = append(dst, `,"Message":`...)
	dst = appendString(dst, p.Message)
	return append(dst, '}'), nil
}

func appendHTTP(dst []byte, h *session.HTTPJSON) ([]byte, error) {
	var err error
	dst = append(dst, `{"id":`...)
	dst = strconv.AppendUint(dst, h.ID, 10)
	dst = append(dst, `,"purpose":`...)
	dst = appendString(dst, h.Purpose)
	dst = append(dst, `,"method":`...)
	dst = appendString(dst, h.Method)
	dst = append(dst, `,"url":`...)
	dst = appendString(dst, h.URL)
	if h.Status != 0 {
		dst = append(dst, `,"status":`...)
		dst = strconv.AppendInt(dst, int64(h.Status), 10)
	}
	if len(h.ReqHeaders) > 0 {
		dst = appendHeader(append(dst, `,"request_headers":`...), h.ReqHeaders)
	}
	if len(h.RespHeaders) > 0 {
		dst = appendHeader(append(dst, `,"response_headers":`...), h.RespHeaders)
	}
	dst = append(dst, `,"duration_ms":`...)
	if dst, err = appendFloat(dst, h.DurationMS); err != nil {
		return dst, err
	}
	dst = appendStringMember(dst, `,"error":`, h.Err)
	if h.Hop != 0 {
		dst = strconv.AppendInt(append(dst, `,"hop":`...), int64(h.Hop), 10)
	}
	if r := h.Redirect; r != nil {
		dst = appendRedirect(append(dst, `,"redirect":`...), r)
	}
	dst = appendStringMember(dst, `,"step":`, h.Step)
	dst = appendStringMember(dst, `,"request_body":`, h.ReqBody)
	dst = appendStringMember(dst, `,"response_body":`, h.RespBody)
	dst = appendStringList(dst, `,"checks":`, h.Checks)
	return append(dst, '}'), nil
}

// appendRedirect appends a redirect: every member has omitempty.
func appendRedirect(dst []byte, r *session.Redirect) []byte {
	n0 := len(dst)
	dst = append(dst, '{')
	dst = appendStringMember(dst, `,"location":`, r.Location)
	if r.CrossOrigin {
		dst = append(dst, `,"cross_origin":true`...)
	}
	if r.Followed {
		dst = append(dst, `,"followed":true`...)
	}
	dst = appendStringList(dst, `,"withheld":`, r.Withheld)
	dst = appendStringList(dst, `,"forwarded":`, r.Forwarded)
	dst = appendStringMember(dst, `,"not_followed":`, r.NotFollowed)
	if len(dst) > n0+1 {
		dst = append(dst[:n0+1], dst[n0+2:]...) // the first member's comma
	}
	return append(dst, '}')
}

// appendStringList appends a []string member that has omitempty.
func appendStringList(dst []byte, key string, list []string) []byte {
	if len(list) == 0 {
		return dst
	}
	dst = append(dst, key...)
	for i, v := range list {
		dst = append(dst, "[,"[min(i, 1)])
		dst = appendString(dst, v)
	}
	return append(dst, ']')
}

// appendHeader appends a non-nil header as encoding/json encodes a map: names sorted
// bytewise, a nil value list as null.
func appendHeader(dst []byte, h http.Header) []byte {
	var small [24]string
	names := small[:0]
	for k := range h {
		names = append(names, k)
	}
	slices.Sort(names)
	dst = append(dst, '{')
	for i, k := range names {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, k)
		dst = append(dst, ':')
		dst = appendStrings(dst, h[k])
	}
	return append(dst, '}')
}

// appendStrings appends a string slice: null when nil, as encoding/json does.
func appendStrings(dst []byte, vs []string) []byte {
	if vs == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, v := range vs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, v)
	}
	return append(dst, ']')
}

func appendExit(dst []byte, x *session.ExitJSON) []byte {
	dst = append(dst, `{"code":`...)
	dst = strconv.AppendInt(dst, int64(x.Code), 10)
	dst = appendStringMember(dst, `,"signal":`, x.Signal)
	dst = appendStringMember(dst, `,"error":`, x.Err)
	if len(x.LastStderr) > 0 {
		dst = appendStrings(append(dst, `,"last_stderr":`...), x.LastStderr)
	}
	if x.ByUs {
		dst = append(dst, `,"by_us":true`...)
	}
	return append(dst, '}')
}

// appendFloat formats a float64 as encoding/json does (the ES6 number-to-string rules:
// 'f' form, 'e' form below 1e-6 and from 1e21, exponents without a leading zero). NaN and
// infinities are refused.
func appendFloat(dst []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return dst, errUnencodable
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// e-09 becomes e-9
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, nil
}

// appendCompact appends a raw JSON value as encoding/json writes a json.RawMessage with
// HTML escaping off: checked, and with the whitespace between tokens removed.
func appendCompact(dst, src []byte) ([]byte, error) {
	if !json.Valid(src) {
		return dst, errUnencodable
	}
	if !bytes.ContainsAny(src, " \t\r\n") {
		return append(dst, src...), nil
	}
	start := 0
	inString, escaped := false, false
	for i, c := range src {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			dst = append(dst, src[start:i]...)
			start = i + 1
		}
	}
	return append(dst, src[start:]...), nil
}

// plain marks the ASCII bytes a JSON string holds as they are when HTML escaping is off.
var plain = func() (t [utf8.RuneSelf]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\'
	}
	return t
}()

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string exactly as encoding/json does with HTML
// escaping off: \" \\ \b \f \n \r \t, other control bytes as \u00XX, U+2028 and U+2029
// as \u2028 and \u2029, and each byte of invalid UTF-8 as \ufffd.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if plain[b] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

func appendGap(dst []byte, g *session.Gap) []byte {
	dst = strconv.AppendUint(append(dst, `{"first_seq":`...), g.FirstSeq, 10)
	dst = strconv.AppendUint(append(dst, `,"last_seq":`...), g.LastSeq, 10)
	dst = strconv.AppendUint(append(dst, `,"events":`...), g.Events, 10)
	dst = strconv.AppendInt(append(dst, `,"bytes":`...), g.Bytes, 10)
	return append(dst, '}')
}
