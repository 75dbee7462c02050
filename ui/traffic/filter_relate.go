package traffic

import (
	"bytes"
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/query"
	"github.com/mcpscope/mcpscope/recordings"
)

// Three terms judge an event by the rows around it: tool: names the tool of a response's
// request, slow: compares the latency a request gets from its response, and has:progress
// holds for a request that a progress notification refers to. Live, the history links the
// rows. Over an opened recording the search first learns those links with a pass over the
// lines that can hold them (recordings.Lines, at the speed of bytes.Index, decoding
// only the few lines whose bytes cannot tell), and then judges each event by what the pass
// learnt: the lines that match (sorted, four bytes each) and the requests that do (their
// session and sequence number). Requests are written before their responses, so one pass
// in the file's order sees a request first.
//
// Where they differ from the live view: a response is tied to its request however far
// apart they are (the live history forgets the oldest rows), any response of a request
// that was answered twice decides its latency, and a JSON-RPC batch (2025-03-26) gets its
// latency from the session's own measure only.

// relKind is which term needs the rows around an event.
type relKind int

const (
	relTool relKind = iota + 1
	relSlow
	relProgress
)

// relation is a term of relKind, with what it compares.
type relation struct {
	kind  relKind
	name  string // relTool: the tool's name (lower case)
	exact bool   // relTool: the whole name
	slow  func(time.Duration) bool
}

// relationOf is the relation of field:value, or nil when the term is decided by its event
// alone (field by its name in Fields).
func relationOf(field, value string) *relation {
	lv := strings.ToLower(value)
	switch field {
	case "tool":
		name, exact := strings.CutPrefix(lv, "=")
		return &relation{kind: relTool, name: name, exact: exact}
	case "slow":
		slow, err := query.SlowTest(value)
		if err != nil {
			return nil // the matcher's parse reports it
		}
		return &relation{kind: relSlow, slow: slow}
	case "has":
		if lv == "progress" {
			return &relation{kind: relProgress}
		}
	}
	return nil
}

// The members a relation pass looks for, as the Writer writes them. A line is read as
// written: the Writer writes member names, kinds and directions in lower case.
var (
	litToolsCall  = []byte(`"method":"tools/call"`)
	litRequestSeq = []byte(`"request_seq":`)
	litProgress   = []byte(`"progress":{`)
	litRequest    = []byte(`"frame":"request"`)
	litBatch      = []byte(`"frame":"batch"`)
	litResult     = []byte(`"frame":"result"`)
	litError      = []byte(`"frame":"error"`)
	litInRequest  = []byte(`"dir":"in","frame":"request"`)
	litSeq        = []byte(`{"seq":`)
)

// lineHead is the part of a frame's line before its bytes: the members that say what the
// frame is (kind, direction, frame kind, method, id); base64 says the bytes are held as
// base64 (they are not UTF-8), so no text of theirs is in the line.
func lineHead(line []byte) (head []byte, base64 bool) {
	if at := lineMember(line, keyRaw); at >= 0 {
		return line[:at], false
	}
	if at := lineMember(line, keyRawBase64); at >= 0 {
		return line[:at], true
	}
	return line, false
}

// Member names as lineMember looks for them: the name, its closing quote and the colon.
var (
	keyRequestSeq = []byte(`request_seq":`)
	keyLatency    = []byte(`latency_ms":`)
	keyProgress   = []byte(`progress":`)
	keyGen        = []byte(`gen":`)
	keyRaw        = []byte(`raw":`)
	keyRawBase64  = []byte(`raw_base64":`)
)

// lineMember is where the value of the line's own member key (see above) starts, or -1.
// Only the line's object has it: inside a frame's string, quotes are escaped. The name is
// looked for without its opening quote, which JSON has everywhere.
func lineMember(line, key []byte) int {
	for from := 0; ; {
		at := bytes.Index(line[from:], key)
		if at < 0 {
			return -1
		}
		at += from
		if at > 0 && line[at-1] == '"' {
			return at + len(key)
		}
		from = at + 1
	}
}

// lineRequestKey is the session and sequence number of the request a line refers to.
func lineRequestKey(line []byte) (genSeq, bool) {
	at := lineMember(line, keyRequestSeq)
	if at < 0 {
		return genSeq{}, false
	}
	seq, ok := lineUint(line[at:])
	return genSeq{lineGen(line), seq}, ok && seq != 0
}

// lineGen is a line's session (1 when it does not say, as the view reads it). "gen" is a
// member of the line's own object only: inside the frame's string its quotes are escaped.
// The Writer puts it near the end, where it is looked for first.
func lineGen(line []byte) int {
	tail := max(0, len(line)-160)
	at := lineMember(line[tail:], keyGen)
	if at >= 0 {
		at += tail
	} else if tail > 0 {
		at = lineMember(line[:tail+len(keyGen)], keyGen)
	}
	if at < 0 {
		return 1
	}
	g, ok := lineUint(line[at:])
	if !ok || g > 1<<31 {
		return 1
	}
	return max(1, int(g))
}

// lineUint reads the unsigned integer at the start of b.
func lineUint(b []byte) (uint64, bool) {
	n := 0
	for n < len(b) && n < 20 && '0' <= b[n] && b[n] <= '9' {
		n++
	}
	v, err := strconv.ParseUint(string(b[:n]), 10, 64)
	return v, err == nil
}

// lineLatency is the latency_ms member of a line; ok is false when it has none.
func lineLatency(line []byte) (time.Duration, bool) {
	at := lineMember(line, keyLatency)
	if at < 0 {
		return 0, false
	}
	b := line[at:]
	n := 0
	for n < len(b) && n < 32 && bytes.IndexByte([]byte("0123456789.eE+-"), b[n]) >= 0 {
		n++
	}
	ms, err := strconv.ParseFloat(string(b[:n]), 64)
	if err != nil {
		return 0, false
	}
	return time.Duration(ms * float64(time.Millisecond)), true
}

// keySet is a sorted set of events (session, sequence number), with their sequence
// numbers alone, which a line gives at once (its session is at its end).
type keySet struct {
	keys []genSeq
	seqs []uint64
}

func (k *keySet) has(x genSeq) bool {
	_, ok := slices.BinarySearchFunc(k.keys, x, cmpGenSeq)
	return ok
}

// hasLine reports whether the event of a line is in the set.
func (k *keySet) hasLine(line []byte) bool {
	if len(k.keys) == 0 || !bytes.HasPrefix(line, litSeq) {
		return false
	}
	seq, ok := lineUint(line[len(litSeq):])
	if !ok {
		return false
	}
	if _, ok := slices.BinarySearch(k.seqs, seq); !ok {
		return false
	}
	return k.has(genSeq{lineGen(line), seq})
}

func cmpGenSeq(a, b genSeq) int {
	return cmp.Or(cmp.Compare(a.gen, b.gen), cmp.Compare(a.seq, b.seq))
}

func newKeySet(keys []genSeq) keySet {
	slices.SortFunc(keys, cmpGenSeq)
	keys = slices.Compact(keys)
	seqs := make([]uint64, len(keys))
	for i, k := range keys {
		seqs[i] = k.seq
	}
	slices.Sort(seqs)
	return keySet{keys: keys, seqs: slices.Compact(seqs)}
}

// lineSet is a sorted set of line indices.
type lineSet []int32

func (l lineSet) has(i int) bool {
	_, ok := slices.BinarySearch(l, int32(i))
	return ok
}

// facts is what a relation pass learnt: the lines that match, and the requests that do
// (a request matches when its line does, or when its key is in reqs).
type facts struct {
	lines lineSet
	reqs  keySet
}

// matches reports whether event e, at line i of the recording, passes the relation.
func (rel *relation) matches(f *facts, i int, e *Entry) bool {
	if f.lines.has(i) {
		return true
	}
	ev := e.Ev
	if ev == nil || ev.Frame == nil {
		return false
	}
	switch rel.kind {
	case relProgress:
		if ev.Corr.Progress != nil {
			return true
		}
	case relTool:
		return false
	case relSlow:
		if k := ev.Frame.Kind; k != protocol.KindRequest && k != protocol.KindBatch {
			return false
		}
	}
	return f.reqs.has(genSeq{e.Gen, ev.Seq})
}

// lineTerm is what the relation tells the search about a line's bytes (for a term that is
// not negated): the lines that can match.
func (rel *relation) lineTerm(f *facts) recordings.LineTerm {
	switch rel.kind {
	case relProgress:
		return recordings.LineTerm{Any: [][]byte{litProgress, litRequest, litBatch}, Keep: func(_ int, line []byte) bool {
			return f.reqs.hasLine(line) || lineMember(line, keyProgress) >= 0
		}}
	case relTool:
		return recordings.LineTerm{Lines: f.lines}
	}
	t := recordings.LineTerm{Lines: f.lines}
	if len(f.reqs.keys) > 0 {
		t.Any = [][]byte{litRequest, litBatch}
		t.Keep = func(_ int, line []byte) bool { return f.reqs.hasLine(line) }
	}
	return t
}

// inRequestsKept bounds the server's requests a slow: pass remembers while it waits for
// their answers (the oldest are forgotten first: their answers, if they come, have no
// latency).
const inRequestsKept = 1 << 16

// learn runs the relation's pass over r; progress is told how far it got (lines).
func (rel *relation) learn(ctx context.Context, r *recordings.Reader, progress func(next int)) (*facts, error) {
	switch rel.kind {
	case relTool:
		return rel.learnTool(ctx, r, progress)
	case relProgress:
		return learnProgress(ctx, r, progress)
	}
	return rel.learnSlow(ctx, r, progress)
}

// lineAt is a line index found by a pass, with what it says.
type lineAt struct {
	i      int32
	key    genSeq    // the request the line is or answers
	req    bool      // the line is the request
	at     time.Time // when the line's event happened (the server's requests and their answers)
	judged bool      // slow:: the line's own latency_ms passed, in the pass's work
}

// learnTool: the tools/call requests naming the tool, and the first answer of each.
func (rel *relation) learnTool(ctx context.Context, r *recordings.Reader, progress func(int)) (*facts, error) {
	lit := literal(rel.name)
	work := func(i int, line []byte, out []lineAt) []lineAt {
		head, base64 := lineHead(line)
		switch {
		case bytes.Contains(head, litRequest):
			if body := line[len(head):]; lit != nil && !base64 {
				recordings.LowerASCII(body) // the name is compared in lower case; the event is read again
				if !bytes.Contains(body, lit) {
					return out
				}
			}
			e, err := r.Entry(i)
			if err != nil || e.Event.Frame == nil || e.Event.Frame.Kind != protocol.KindRequest || e.Event.Frame.Method != MethodToolsCall {
				return out
			}
			name := strings.ToLower(RequestTarget(MethodToolsCall, e.Event.Frame.Params))
			if !query.ToolNamed(name, rel.name, rel.exact) {
				return out
			}
			return append(out, lineAt{i: int32(i), key: genSeq{max(1, e.Gen), e.Event.Seq}, req: true})
		case bytes.Contains(head, litResult) || bytes.Contains(head, litError):
			if k, ok := lineRequestKey(line); ok {
				return append(out, lineAt{i: int32(i), key: k})
			}
		}
		return out
	}
	f := &facts{}
	waiting := map[genSeq]struct{}{} // requests that match, not yet answered
	err := recordings.Lines(ctx, r, [][]byte{litToolsCall}, work, func(found []lineAt, next int) bool {
		for _, l := range found {
			if l.req {
				waiting[l.key] = struct{}{}
				f.lines = append(f.lines, l.i)
			} else if _, ok := waiting[l.key]; ok {
				delete(waiting, l.key)
				f.lines = append(f.lines, l.i)
			}
		}
		progress(next)
		return true
	})
	return f, err
}

// learnProgress: the requests a progress notification refers to.
func learnProgress(ctx context.Context, r *recordings.Reader, progress func(int)) (*facts, error) {
	work := func(_ int, line []byte, out []genSeq) []genSeq {
		if k, ok := lineRequestKey(line); ok {
			return append(out, k)
		}
		return out
	}
	var keys []genSeq
	kept := 0 // keys after the last compaction: a request gets many reports
	err := recordings.Lines(ctx, r, [][]byte{litProgress}, work, func(found []genSeq, next int) bool {
		keys = append(keys, found...)
		if len(keys) > 2*kept+1<<16 {
			slices.SortFunc(keys, cmpGenSeq)
			keys = slices.Compact(keys)
			kept = len(keys)
		}
		progress(next)
		return true
	})
	return &facts{reqs: newKeySet(keys)}, err
}

// learnSlow: the frames whose latency passes, and the requests they answer. A frame with
// latency_ms (a response to mcpscope's request) is judged by it; mcpscope's answer to a
// server's request by the time since that request.
func (rel *relation) learnSlow(ctx context.Context, r *recordings.Reader, progress func(int)) (*facts, error) {
	work := func(i int, line []byte, out []lineAt) []lineAt {
		head, _ := lineHead(line)
		if bytes.Contains(head, litInRequest) {
			if e, err := r.Entry(i); err == nil {
				return append(out, lineAt{i: int32(i), key: genSeq{max(1, e.Gen), e.Event.Seq}, req: true, at: e.Event.Time})
			}
			return out
		}
		if !bytes.Contains(head, litResult) && !bytes.Contains(head, litError) && !bytes.Contains(head, litBatch) {
			return out
		}
		tail := line[len(head):]
		k, ok := lineRequestKey(tail)
		if !ok {
			return out
		}
		if lat, ok := lineLatency(tail); ok && lat > 0 {
			if !rel.slow(lat) {
				return out
			}
			return append(out, lineAt{i: int32(i), key: k, judged: true})
		}
		e, err := r.Entry(i)
		if err != nil {
			return out
		}
		return append(out, lineAt{i: int32(i), key: k, at: e.Event.Time})
	}
	f := &facts{}
	var reqs []genSeq
	asked := map[genSeq]lineAt{} // the server's requests not yet answered, at most inRequestsKept
	var order []genSeq
	err := recordings.Lines(ctx, r, [][]byte{litRequestSeq, litInRequest}, work, func(found []lineAt, next int) bool {
		for _, l := range found {
			switch {
			case l.req:
				asked[l.key] = l
				order = append(order, l.key)
				for len(asked) > inRequestsKept && len(order) > 0 {
					delete(asked, order[0])
					order = order[1:]
				}
				if len(order) > 2*inRequestsKept {
					order = slices.DeleteFunc(order, func(k genSeq) bool { _, ok := asked[k]; return !ok })
				}
			case l.judged:
				f.lines = append(f.lines, l.i)
				reqs = append(reqs, l.key)
			default:
				q, ok := asked[l.key]
				if !ok {
					continue
				}
				delete(asked, l.key)
				if lat := l.at.Sub(q.at); lat > 0 && rel.slow(lat) {
					f.lines = append(f.lines, l.i, q.i)
				}
			}
		}
		progress(next)
		return true
	})
	slices.Sort(f.lines)
	f.lines = slices.Compact(f.lines)
	f.reqs = newKeySet(reqs)
	return f, err
}

// Relate runs the pass of each relation of the query, and returns the query that judges
// events by what the passes learnt (for the event at line e.Index of r) and the line terms
// they add to the prefilter. progress is told each pass's progress (pass, line).
func (q Query) Relate(ctx context.Context, r *recordings.Reader, progress func(pass, next int)) (Query, []recordings.LineTerm, error) {
	out := Query{Err: q.Err, terms: slices.Clone(q.terms)}
	var lts []recordings.LineTerm
	pass := 0
	for k := range out.terms {
		t := &out.terms[k]
		rel := t.rel
		if rel == nil {
			continue
		}
		p := pass
		f, err := rel.learn(ctx, r, func(next int) { progress(p, next) })
		if err != nil {
			return Query{}, nil, err
		}
		pass++
		t.match = func(e *Entry) bool { return rel.matches(f, int(e.Index), e) }
		if !t.neg {
			lts = append(lts, rel.lineTerm(f))
		}
	}
	return out, lts, nil
}

// Relations counts the query's terms that need a pass of their own.
func (q Query) Relations() int {
	n := 0
	for _, t := range q.terms {
		if t.rel != nil {
			n++
		}
	}
	return n
}
