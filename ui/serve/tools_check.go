package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/recordings/pin"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/check"
)

// CheckIn is check's input: the options of mcpscope check.
type CheckIn struct {
	Session       string   `json:"session" jsonschema:"check the server this session is on (check starts sessions of its own, each recorded)"`
	AllEras       bool     `json:"all_eras,omitempty" jsonschema:"also check the stateful era when a 2026-07-28 server lists earlier revisions"`
	Read          *int     `json:"read,omitempty" jsonschema:"how many resources (and templates) to read (default 10)"`
	Call          []string `json:"call,omitempty" jsonschema:"call these tools too; by default only tools annotated readOnlyHint are called"`
	CallsFrom     string   `json:"calls_from,omitempty" jsonschema:"also make the tools/call requests of this recording, with their arguments"`
	ReadOnlyCalls *bool    `json:"read_only_calls,omitempty" jsonschema:"call the tools annotated readOnlyHint (default true)"`
	CallWaitMS    int      `json:"call_wait_ms,omitempty" jsonschema:"cancel a call still running after this long: the cancellation check (default 2000)"`
	Slow          []string `json:"slow,omitempty" jsonschema:"latency thresholds: DURATION for every method, METHOD=DURATION for one, startup=DURATION for the handshake"`
}

// CheckOut is check's result.
type CheckOut struct {
	Errors     int             `json:"errors"`
	Warnings   int             `json:"warnings"`
	Info       int             `json:"info"`
	Report     json.RawMessage `json:"report" jsonschema:"the report, as mcpscope check --json prints it"`
	Recordings []string        `json:"recordings" jsonschema:"the recordings of check's sessions"`
}

func (s *Server) check(ctx context.Context, in CheckIn) (CheckOut, error) {
	l, err := s.reg.get(in.Session)
	if err != nil {
		return CheckOut{}, err
	}
	o := check.Options{AllEras: in.AllEras, Read: 10, NoSafeCalls: in.ReadOnlyCalls != nil && !*in.ReadOnlyCalls,
		CallWait: 2 * time.Second, Slow: map[string]time.Duration{}, Protocol: l.target.Protocol}
	if o.Protocol == "" {
		o.Protocol = "auto"
	}
	if in.Read != nil {
		o.Read = max(*in.Read, 0)
	}
	if in.CallWaitMS > 0 {
		o.CallWait = time.Duration(in.CallWaitMS) * time.Millisecond
	}
	for _, name := range in.Call {
		o.Calls = append(o.Calls, check.ToolCall{Name: name})
	}
	if in.CallsFrom != "" {
		if s.opts.RecordedCalls == nil {
			return CheckOut{}, fmt.Errorf("calls_from is not available here")
		}
		calls, err := s.opts.RecordedCalls(in.CallsFrom)
		if err != nil {
			return CheckOut{}, err
		}
		o.Calls = append(o.Calls, calls...)
	}
	for _, sl := range in.Slow {
		method, dur, found := strings.Cut(sl, "=")
		if !found {
			method, dur = "", sl
		}
		d, err := time.ParseDuration(dur)
		if err != nil || d <= 0 {
			return CheckOut{}, fmt.Errorf("slow %q: want DURATION or METHOD=DURATION", sl)
		}
		o.Slow[method] = d
	}
	var paths []string
	newSession := func(proto string) (*session.Session, func(), error) {
		t := l.target
		t.Protocol, t.reprobe = proto, proto == "auto"
		if t.Elicit == policyAsk {
			t.Elicit = "" // check's sessions answer by a fixed policy: no one is asked
		}
		op, err := s.opts.Open(t)
		if err != nil {
			return nil, nil, err
		}
		c, err := newLive(s.opts.RecordDir, t, op)
		if err != nil {
			return nil, nil, err
		}
		paths = append(paths, c.path)
		return op.Session, func() { _ = c.close() }, nil
	}
	rep, err := check.Check(ctx, newSession, o)
	if err != nil {
		return CheckOut{}, err
	}
	b, err := json.Marshal(rep)
	if err != nil {
		return CheckOut{}, err
	}
	return CheckOut{Errors: rep.Count(protocol.SevError), Warnings: rep.Count(protocol.SevWarning), Info: rep.Count(protocol.SevInfo),
		Report: b, Recordings: paths}, nil
}

// PinIn is pin's input.
type PinIn struct {
	Session string `json:"session"`
	File    string `json:"file,omitempty" jsonschema:"the pin file to write (default: a new file in mcpscope's pins directory)"`
}

// PinOut is pin's result.
type PinOut struct {
	File  string    `json:"file"`
	Items []PinItem `json:"items"`
}

// PinItem is one pinned definition's hash.
type PinItem struct {
	Kind string `json:"kind"`
	Name string `json:"name,omitempty"`
	Hash string `json:"hash"`
}

func (s *Server) pin(ctx context.Context, in PinIn) (PinOut, error) {
	l, err := s.reg.get(in.Session)
	if err != nil {
		return PinOut{}, err
	}
	set, err := pin.FromSession(ctx, l.sess())
	if err != nil {
		return PinOut{}, err
	}
	file := in.File
	if file == "" {
		dir, err := s.pinDir()
		if err != nil {
			return PinOut{}, err
		}
		name := recordings.SanitizeTapName(set.Server.Name)
		if name == "" {
			name = "server"
		}
		file = filepath.Join(dir, fmt.Sprintf("%s-%s.json", name, time.Now().Format("20060102-150405")))
	}
	set.Created = time.Now().UTC().Truncate(time.Second)
	if err := set.Save(file); err != nil {
		return PinOut{}, err
	}
	out := PinOut{File: file, Items: []PinItem{}}
	for _, it := range set.Items {
		out.Items = append(out.Items, PinItem{Kind: string(it.Kind), Name: it.Name, Hash: it.Hash})
	}
	return out, nil
}

// pinDir is where pin writes by default, made when missing.
func (s *Server) pinDir() (string, error) {
	dir := s.opts.PinDir
	if dir == "" {
		rec, err := recordings.DefaultRecordDir()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(filepath.Dir(rec), "pins") // beside the recordings directory
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create the pins directory: %w", err)
	}
	return dir, nil
}

// DiffIn is diff's input.
type DiffIn struct {
	Session string `json:"session" jsonschema:"the server now"`
	Against string `json:"against" jsonschema:"what it was: a pin file, a recording (.jsonl), or another session's id"`
}

// DiffOut is diff's result.
type DiffOut struct {
	Equal   bool            `json:"equal"`
	Text    string          `json:"text" jsonschema:"the changes, as mcpscope diff prints them"`
	Report  json.RawMessage `json:"report" jsonschema:"the changes, as mcpscope diff --json prints them"`
	LeftOut []string        `json:"left_out,omitempty" jsonschema:"kinds a recording never listed whole, left out of the comparison"`
}

func (s *Server) diff(ctx context.Context, in DiffIn) (DiffOut, error) {
	l, err := s.reg.get(in.Session)
	if err != nil {
		return DiffOut{}, err
	}
	var old *pin.Set
	var missing []session.ListKind
	if o, gerr := s.reg.get(in.Against); gerr == nil {
		if old, err = pin.FromSession(ctx, o.s); err != nil {
			return DiffOut{}, err
		}
		old.Source = o.id + " (" + o.server + ")"
	} else if old, err = pin.Load(in.Against); err != nil {
		var rerr error
		if old, missing, rerr = pin.FromRecording(in.Against); rerr != nil {
			return DiffOut{}, fmt.Errorf("%s is neither a session, a pin file nor a recording: %v; %v", in.Against, err, rerr)
		}
	}
	cur, err := pin.FromSession(ctx, l.sess())
	if err != nil {
		return DiffOut{}, err
	}
	cur.Source = l.id + " (" + l.server + ")"
	var drop []pin.Kind
	var left []string
	for _, k := range missing {
		drop = append(drop, pin.KindOf(k))
		left = append(left, string(pin.KindOf(k)))
	}
	rep := pin.Compare(old.Without(drop...), cur.Without(drop...))
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "--- %s\n+++ %s\n", rep.Old, rep.New)
	rep.WriteText(&buf)
	b, err := json.Marshal(rep)
	if err != nil {
		return DiffOut{}, err
	}
	return DiffOut{Equal: rep.Equal(), Text: buf.String(), Report: b, LeftOut: left}, nil
}
