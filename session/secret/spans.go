package secret

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// span is a secret's place in a text: bytes [lo, hi) are replaced by the mask.
type span struct{ lo, hi int }

// apply replaces each span of s by the mask. Overlapping spans become one; s itself is
// returned when there is none.
func apply(s string, spans []span) string {
	if len(spans) == 0 {
		return s
	}
	spans = merge(spans)
	var b strings.Builder
	b.Grow(len(s))
	at := 0
	for _, sp := range spans {
		b.WriteString(s[at:sp.lo])
		b.WriteString(Mask)
		at = sp.hi
	}
	b.WriteString(s[at:])
	return b.String()
}

// merge sorts spans and joins those that overlap; empty spans are dropped.
func merge(spans []span) []span {
	slices.SortFunc(spans, func(a, b span) int { return a.lo - b.lo })
	out := spans[:0]
	for _, sp := range spans {
		if sp.hi <= sp.lo {
			continue
		}
		if n := len(out); n > 0 && sp.lo < out[n-1].hi {
			out[n-1].hi = max(out[n-1].hi, sp.hi)
			continue
		}
		out = append(out, sp)
	}
	return out
}

// scan is one masking of a text: what may be in it at all, found once over the whole text,
// so that each of its strings is searched only for that.
type scan struct {
	values []string // the given values (and their escaped forms) that may be in the text
	shapes []*shape // the shapes whose hints are in the text
	assign bool     // the text holds a '='
	member bool     // the text holds a ':'
}

// newScan is the scan of s for m's values and the shapes.
func (m *Masker) newScan(s string) *scan {
	sc := &scan{assign: strings.IndexByte(s, '=') >= 0, member: strings.IndexByte(s, ':') >= 0}
	if m != nil {
		uescape := strings.Contains(s, `\u`) // a character of any value may be written so
		for i, v := range m.values {
			if uescape || strings.Contains(s, m.cores[i]) {
				sc.values = append(sc.values, v)
			}
		}
		for _, e := range m.escaped {
			if strings.Contains(s, e) {
				sc.values = append(sc.values, e)
			}
		}
	}
	for i := range shapes {
		for _, h := range shapes[i].hints {
			if strings.Contains(s, h) {
				sc.shapes = append(sc.shapes, &shapes[i])
				break
			}
		}
	}
	return sc
}

// core is the longest run of v that every JSON form of v holds as it is (no quote,
// backslash, slash, control character, non-ASCII or HTML character, which an encoder may
// escape): a text without it holds v at no depth of JSON strings.
func core(v string) string {
	best, start := "", 0
	for i := 0; i <= len(v); i++ {
		if i == len(v) || v[i] < 0x20 || v[i] >= 0x7f || strings.IndexByte(`"\/<>&'+=`, v[i]) >= 0 {
			if i-start > len(best) {
				best = v[start:i]
			}
			start = i + 1
		}
	}
	return best
}

// plainSpans finds the secrets in text that is not JSON: the given values, the secret
// shapes, secret assignments (NAME=value) and secret JSON members written in the text
// ("NAME": "value", also with escaped quotes).
func (sc *scan) plainSpans(s string, out []span) []span {
	out = sc.valueSpans(s, out)
	out = sc.shapeSpans(s, out)
	if sc.assign {
		out = assignSpans(s, out)
	}
	if sc.member {
		out = memberSpans(s, out)
	}
	return out
}

// valueSpans finds the given values, as they are and JSON-escaped.
func (sc *scan) valueSpans(s string, out []span) []span {
	{
		for _, v := range sc.values {
			for at := 0; ; {
				i := strings.Index(s[at:], v)
				if i < 0 {
					break
				}
				out = append(out, span{at + i, at + i + len(v)})
				at += i + len(v)
			}
		}
	}
	return out
}

// lastSecretWords are the last words of a name that make it a secret's, whatever comes before.
var lastSecretWords = []string{"password", "passwd", "passphrase", "secret", "credential", "credentials", "apikey", "assertion"}

// keyWords are the words before "key" that make a secret's name (API_KEY, secretAccessKey).
var keyWords = []string{"api", "access", "secret", "private", "client", "signing", "encryption", "master", "auth"}

// notSecretToken are the words before "token" that name no credential: a page token, a
// progress token, a continuation token are places, not secrets.
var notSecretToken = []string{"page", "progress", "next", "continuation", "sync", "cursor", "max", "min"}

// oneOf reports whether w is one of list, in any case.
func oneOf(w string, list []string) bool {
	for _, x := range list {
		if len(x) == len(w) && strings.EqualFold(x, w) {
			return true
		}
	}
	return false
}

// SecretName reports whether a variable, flag or JSON member of this name holds a secret:
// its last word is password, passwd, passphrase, secret, credential(s), apikey, assertion
// or token (not a page, progress or continuation token), or it ends in api/access/secret/
// private/client/signing/encryption/master/auth key, code_verifier, device_code, or a pwd
// after another word. Words are split at _, -, . and lower-to-upper case changes:
// AWS_SECRET_ACCESS_KEY, client-secret, accessToken and DB_PWD are secret names; max_tokens,
// token_type, sort_key, nextPageToken and PWD are not.
func SecretName(name string) bool {
	if len(name) < 3 {
		return false
	}
	// Most names end in none of the secret words' last three letters: they are turned down
	// before they are split.
	switch string([]byte{name[len(name)-3] | 0x20, name[len(name)-2] | 0x20, name[len(name)-1] | 0x20}) {
	case "ord", "swd", "ase", "ret", "ial", "als", "key", "ion", "ken", "pwd", "ier", "ode":
	default:
		return false
	}
	last, prev := "", "" // the last two words
	start := 0
	word := func(end int) {
		if end > start {
			last, prev = name[start:end], last
		}
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_' || c == '-' || c == '.':
			word(i)
			start = i + 1
		case c >= 'A' && c <= 'Z' && i > start && (name[i-1] >= 'a' && name[i-1] <= 'z' || name[i-1] >= '0' && name[i-1] <= '9'):
			word(i)
			start = i
		}
	}
	word(len(name))
	switch {
	case last == "":
		return false
	case oneOf(last, lastSecretWords):
		return true
	case strings.EqualFold(last, "token"):
		return !oneOf(prev, notSecretToken)
	case strings.EqualFold(last, "key"):
		return oneOf(prev, keyWords)
	case strings.EqualFold(last, "pwd"):
		return prev != ""
	case strings.EqualFold(last, "verifier"):
		return strings.EqualFold(prev, "code")
	case strings.EqualFold(last, "code"):
		return strings.EqualFold(prev, "device")
	}
	return false
}

// isNameByte is a byte of an assignment's name.
func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

// assignSpans finds the values of secret assignments: NAME=value where NAME is a whole
// secret name (SecretName) and the value a plausible secret (plausibleValue).
func assignSpans(s string, out []span) []span {
	for at := 0; at < len(s); {
		k := strings.IndexByte(s[at:], '=')
		if k < 0 {
			break
		}
		eq := at + k
		at = eq + 1
		st := eq
		for st > 0 && eq-st <= 128 && isNameByte(s[st-1]) {
			st--
		}
		if st > 1 && s[st-1] == '\\' && strings.IndexByte(`nrtbf`, s[st]) >= 0 {
			st++ // the name follows an escape such as \n in JSON-escaped text
		}
		if st == eq || eq-st > 128 || !SecretName(s[st:eq]) {
			continue
		}
		end := valueEnd(s, eq+1)
		query := st > 0 && (s[st-1] == '?' || s[st-1] == '&')
		if !plausibleValue(s[eq+1:end], s[end:], query) {
			continue
		}
		out = append(out, span{eq + 1, end})
		at = end
	}
	return out
}

// valueEnd is where an assignment's value starting at p ends: at white space, a quote, a
// backslash that starts no \uXXXX or \/ escape, or punctuation that delimits code and
// query strings (& ; , ( ) [ ] { } < > | ?).
func valueEnd(s string, p int) int {
	for p < len(s) {
		c := s[p]
		switch c {
		case ' ', '\t', '\n', '\r', '\f', '\v', '"', '\'', '`', '&', ';', ',', '(', ')', '[', ']', '{', '}', '<', '>', '|', '?':
			return p
		case '\\':
			switch {
			case p+1 < len(s) && s[p+1] == '/':
				p += 2
			case p+5 < len(s) && s[p+1] == 'u' && isHex(s[p+2:p+6]):
				p += 6
			default:
				return p
			}
			continue
		}
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[p:])
			if isSpace(r) {
				return p
			}
			p += n
			continue
		}
		p++
	}
	return p
}

func isSpace(r rune) bool {
	return r == 0x85 || r == 0xA0 || r == 0x1680 || r >= 0x2000 && r <= 0x200A || r == 0x2028 || r == 0x2029 || r == 0x202F || r == 0x205F || r == 0x3000
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if !(s[i] >= '0' && s[i] <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// literalWords are values that are no secret: a variable set to nothing.
var literalWords = map[string]bool{"null": true, "true": true, "false": true, "none": true, "nil": true, "undefined": true}

// plausibleValue reports whether an assignment's value v (followed by rest) is a secret
// rather than code. A query or form parameter's value always is. Otherwise it is not when
// it starts with = (==, ===: a comparison), $ (a variable's reference), !, ?, : or *
// (already masked), is shorter than four characters or a literal (null, true …), is
// followed by ( (a call), is a member access (b.token: names and dots, no digit), or is a
// name followed by ; ) , } or ] (code: api_key=abc123;).
func plausibleValue(v, rest string, query bool) bool {
	if v == "" || strings.IndexByte("=$!?:*", v[0]) >= 0 {
		return false
	}
	if query {
		return true
	}
	if utf8.RuneCountInString(v) < 4 || literalWords[strings.ToLower(v)] {
		return false
	}
	next := byte(0)
	if rest != "" {
		next = rest[0]
	}
	if next == '(' {
		return false
	}
	if identChain(v) {
		if strings.IndexByte(v, '.') >= 0 && !hasDigit(v) {
			return false
		}
		if next != 0 && strings.IndexByte(";),}]", next) >= 0 {
			return false
		}
	}
	return true
}

// identChain reports whether v is a name or names joined by dots, as code writes them
// (a, b.token, process.env.API_KEY).
func identChain(v string) bool {
	first := true
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '.':
			if first {
				return false
			}
			first = true
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$':
			first = false
		case c >= '0' && c <= '9':
			if first {
				return false
			}
		default:
			return false
		}
	}
	return !first
}

// memberSpans finds the values of secret JSON members written in text that is not parsed
// as JSON: "NAME": "value", and \"NAME\": \"value\" (JSON inside a JSON string). Only the
// characters inside the value's quotes are taken, whole escapes at a time.
func memberSpans(s string, out []span) []span {
	for at := 0; at < len(s); {
		k := strings.IndexByte(s[at:], ':')
		if k < 0 {
			break
		}
		colon := at + k
		at = colon + 1
		q := colon // the name's closing quote
		for q > 0 && (s[q-1] == ' ' || s[q-1] == '\t') {
			q--
		}
		if q == 0 || s[q-1] != '"' {
			continue
		}
		q--
		escaped := q > 0 && s[q-1] == '\\'
		end := q
		if escaped {
			end--
		}
		st := end
		for st > 0 && end-st <= 128 && isNameByte(s[st-1]) {
			st--
		}
		if st == end || st == 0 || s[st-1] != '"' {
			continue
		}
		if openEscaped := st > 1 && s[st-2] == '\\'; openEscaped != escaped || !SecretName(s[st:end]) {
			continue
		}
		p := colon + 1
		for p < len(s) && (s[p] == ' ' || s[p] == '\t') {
			p++
		}
		if escaped {
			if !strings.HasPrefix(s[p:], `\"`) {
				continue
			}
			p += 2
		} else {
			if p >= len(s) || s[p] != '"' {
				continue
			}
			p++
		}
		e := stringEnd(s, p, escaped)
		out = append(out, span{p, e})
		at = e
	}
	return out
}

// stringEnd is where a JSON string's content starting at p ends (its closing quote, or the
// end of s): with escaped, the string is itself inside a JSON string, its quotes written \".
// The content ends between whole escapes.
func stringEnd(s string, p int, escaped bool) int {
	if !escaped {
		for p < len(s) {
			q := strings.IndexByte(s[p:], '"')
			if q < 0 {
				return cutEscape(s, p, len(s))
			}
			q += p
			n := 0 // backslashes just before the quote
			for n < q-p && s[q-1-n] == '\\' {
				n++
			}
			if n%2 == 0 {
				return q
			}
			p = q + 1
		}
		return len(s)
	}
	for p < len(s) {
		c := s[p]
		if !escaped {
			switch c {
			case '"':
				return p
			case '\\':
				p += escapeLen(s, p)
				continue
			}
			p++
			continue
		}
		if c != '\\' {
			if c == '"' { // a bare quote cannot be inside: the outer string ended
				return p
			}
			p++
			continue
		}
		if p+1 < len(s) && s[p+1] == '"' {
			return p // \" closes the inner string
		}
		if p+1 < len(s) && s[p+1] == '\\' {
			// an escape of the inner string: \\ then the outer form of its letter
			n := 2
			if p+2 < len(s) && s[p+2] == '\\' {
				n += escapeLen(s, p+2)
			} else if p+2 < len(s) {
				n++
			}
			p = min(len(s), p+n)
			continue
		}
		p += escapeLen(s, p)
	}
	return min(p, len(s))
}

// cutEscape is end, or where the escape that s[p:end] ends in (cut short) begins: a string
// cut short ends between whole escapes.
func cutEscape(s string, p, end int) int {
	for i := max(p, end-6); i < end; i++ {
		if s[i] == '\\' && (i+1 >= end || s[i+1] == 'u' && i+6 > end) {
			return cutEscape(s, p, i)
		}
	}
	return end
}

// escapeLen is the length of the JSON escape at s[p] ('\\'): six for \uXXXX, two for the
// others, what is left of s when it is cut.
func escapeLen(s string, p int) int {
	if p+5 < len(s) && s[p+1] == 'u' && isHex(s[p+2:p+6]) {
		return 6
	}
	return min(2, len(s)-p)
}
