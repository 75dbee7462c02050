package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// TaskIn is tasks' input.
type TaskIn struct {
	Session string `json:"session"`
	Action  string `json:"action" jsonschema:"list (tasks/list), get (tasks/get: status), result (tasks/result: waits for the end; 2025-11-25) or cancel (tasks/cancel)"`
	TaskID  string `json:"task_id,omitempty" jsonschema:"the task (get, result, cancel): the taskId call_tool with task returned"`
	Cursor  string `json:"cursor,omitempty" jsonschema:"list: the nextCursor of the previous page"`
	Bounds
}

var taskMethods = map[string]string{"list": "tasks/list", "get": "tasks/get", "result": "tasks/result", "cancel": "tasks/cancel"}

func (s *Server) tasks(ctx context.Context, in TaskIn) (Answer, error) {
	method, ok := taskMethods[in.Action]
	if !ok {
		return Answer{}, fmt.Errorf("action %q: want list, get, result or cancel", in.Action)
	}
	var params any
	switch {
	case in.Action == "list" && in.Cursor != "":
		params = map[string]string{"cursor": in.Cursor}
	case in.Action != "list":
		if in.TaskID == "" {
			return Answer{}, fmt.Errorf("%s needs task_id", in.Action)
		}
		params = map[string]string{"taskId": in.TaskID}
	}
	return s.request(ctx, in.Session, method, params, in.Bounds)
}

// RootsIn is roots' input.
type RootsIn struct {
	Session string   `json:"session"`
	Action  string   `json:"action" jsonschema:"list (the roots offered now) or set (replace them; the server is told notifications/roots/list_changed)"`
	Roots   []string `json:"roots,omitempty" jsonschema:"set: the roots, paths or URIs; none offers no root"`
}

// RootsOut is roots' result.
type RootsOut struct {
	Session  string         `json:"session"`
	Declared bool           `json:"declared" jsonschema:"the roots capability was declared at connect (connect with roots to declare it)"`
	Roots    []session.Root `json:"roots" jsonschema:"what roots/list answers with now"`
	Notified bool           `json:"notified,omitempty" jsonschema:"set: notifications/roots/list_changed was sent (the timeline shows it and the server's roots/list after)"`
}

func (s *Server) roots(ctx context.Context, in RootsIn) (RootsOut, error) {
	l, err := s.reg.get(in.Session)
	if err != nil {
		return RootsOut{}, err
	}
	caps := l.sess().Caps()
	out := RootsOut{Session: l.id, Declared: caps.Roots}
	switch in.Action {
	case "list":
	case "set":
		if !caps.Roots {
			return RootsOut{}, fmt.Errorf("the session did not declare roots: connect with roots to offer some and change them later")
		}
		roots := make([]session.Root, 0, len(in.Roots))
		for _, r := range in.Roots {
			roots = append(roots, session.RootFromPath(r))
		}
		l.ask.setRoots(roots)
		if caps.RootsListChanged {
			if err := l.sess().Notify(ctx, "notifications/roots/list_changed", nil); err != nil {
				return RootsOut{}, fmt.Errorf("roots set; telling the server failed: %w", err)
			}
			out.Notified = true
		}
	default:
		return RootsOut{}, fmt.Errorf("action %q: want list or set", in.Action)
	}
	out.Roots = l.ask.currentRoots()
	if out.Roots == nil {
		out.Roots = []session.Root{}
	}
	return out, nil
}

// LogLevelIn is log_level's input.
type LogLevelIn struct {
	Session string `json:"session"`
	Level   string `json:"level" jsonschema:"the least severe level the server sends"`
}

// LogLevelOut is log_level's result.
type LogLevelOut struct {
	Session    string    `json:"session"`
	Level      string    `json:"level"`
	PerRequest bool      `json:"per_request,omitempty" jsonschema:"2026-07-28: no request is sent; every later request carries the level"`
	Exchange   *Exchange `json:"exchange,omitempty" jsonschema:"logging/setLevel's exchange (earlier revisions)"`
}

// logLevels are the levels of logging/setLevel, least severe first.
var logLevels = []any{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

func (s *Server) logLevel(ctx context.Context, in LogLevelIn) (LogLevelOut, error) {
	l, err := s.reg.get(in.Session)
	if err != nil {
		return LogLevelOut{}, err
	}
	if !slices.Contains(logLevels, any(in.Level)) {
		return LogLevelOut{}, fmt.Errorf("level %q: want one of %v", in.Level, logLevels)
	}
	out := LogLevelOut{Session: l.id, Level: in.Level}
	if l.sess().Info().Stateless {
		out.PerRequest = true
		return out, l.sess().SetLogLevel(ctx, in.Level)
	}
	a, err := s.request(ctx, in.Session, "logging/setLevel", map[string]string{"level": in.Level}, Bounds{})
	if err != nil {
		return out, err
	}
	out.Exchange = &a.Exchange
	return out, nil
}

// LogTailIn is log_tail's input.
type LogTailIn struct {
	Session   string `json:"session"`
	Since     uint64 `json:"since,omitempty" jsonschema:"only entries after this seq (0: from the start); next_since pages on"`
	Limit     int    `json:"limit,omitempty" jsonschema:"most entries returned (default 50, at most 500)"`
	DataBytes int    `json:"data_bytes,omitempty" jsonschema:"each entry's data is cut to this many bytes (default 1024, at most 65536); frame gives it whole"`
}

// LogEntry is one notifications/message.
type LogEntry struct {
	Seq    uint64 `json:"seq"`
	Time   string `json:"time"`
	Level  string `json:"level"`
	Logger string `json:"logger,omitempty"`
	Data   string `json:"data" jsonschema:"the entry's data as JSON text, cut to data_bytes"`
	Cut    bool   `json:"cut,omitempty"`
}

// LogTail is log_tail's result.
type LogTail struct {
	Entries   []LogEntry `json:"entries"`
	NextSince uint64     `json:"next_since" jsonschema:"pass as since for the next entries"`
	More      bool       `json:"more" jsonschema:"more entries follow this page"`
}

func (s *Server) logTail(_ context.Context, in LogTailIn) (LogTail, error) {
	l, err := s.reg.get(in.Session)
	if err != nil {
		return LogTail{}, err
	}
	limit := clamp(in.Limit, defaultEvents, maxEvents)
	body := clamp(in.DataBytes, defaultBodyBytes, maxBodyBytes)
	l.mu.Lock()
	told := l.told
	l.mu.Unlock()
	l.waitFor(told, catchUp)
	out := LogTail{Entries: []LogEntry{}, NextSince: in.Since}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range l.h.Entries() {
		ev := e.Ev
		if ev == nil || ev.Seq <= in.Since || ev.Kind != session.EvFrame || ev.Frame == nil || ev.Frame.Method != "notifications/message" || ev.Dir != protocol.ServerToClient {
			continue
		}
		if len(out.Entries) == limit {
			out.More = true
			break
		}
		out.Entries = append(out.Entries, l.logEntry(ev, body))
		out.NextSince = ev.Seq
	}
	return out, nil
}

// logEntry reads a notifications/message event, masked as the recording is.
func (l *live) logEntry(ev *session.Event, body int) LogEntry {
	j := ev.JSON()
	l.redactor.Event(&j)
	var m struct {
		Params struct {
			Level  string          `json:"level"`
			Logger string          `json:"logger"`
			Data   json.RawMessage `json:"data"`
		} `json:"params"`
	}
	if j.Raw != nil {
		_ = json.Unmarshal([]byte(*j.Raw), &m)
	}
	e := LogEntry{Seq: ev.Seq, Time: j.Time.UTC().Format(time.RFC3339Nano), Level: m.Params.Level, Logger: m.Params.Logger, Data: string(m.Params.Data)}
	if len(e.Data) > body {
		e.Data, e.Cut = cutUTF8(e.Data, body), true
	}
	return e
}

// SubscribeIn is subscribe's input.
type SubscribeIn struct {
	Session     string `json:"session"`
	URI         string `json:"uri" jsonschema:"the resource"`
	Unsubscribe bool   `json:"unsubscribe,omitempty" jsonschema:"end the subscription instead"`
}

// SubscribeOut is subscribe's result.
type SubscribeOut struct {
	Session    string    `json:"session"`
	Subscribed []string  `json:"subscribed" jsonschema:"every resource the session is subscribed to now; updates appear in the timeline (method:notifications/resources/updated)"`
	Via        string    `json:"via" jsonschema:"resources/subscribe (earlier revisions) or subscriptions/listen (2026-07-28: the stream is reopened with the new set)"`
	Exchange   *Exchange `json:"exchange,omitempty" jsonschema:"the resources/subscribe or resources/unsubscribe exchange"`
	// Acknowledged: 2026-07-28, the server acknowledged the new stream.
	Acknowledged bool `json:"acknowledged,omitempty" jsonschema:"2026-07-28: the server acknowledged the listen stream (notifications/subscriptions/acknowledged)"`
}

// subscriptions are a session's resource subscriptions and, in 2026-07-28, the listen
// stream that carries them.
type subscriptions struct {
	mu     sync.Mutex
	uris   []string
	cancel context.CancelFunc // ends the listen stream
}

func (s *Server) subscribe(ctx context.Context, in SubscribeIn) (SubscribeOut, error) {
	l, err := s.reg.get(in.Session)
	if err != nil {
		return SubscribeOut{}, err
	}
	if in.URI == "" {
		return SubscribeOut{}, fmt.Errorf("subscribe needs uri")
	}
	out := SubscribeOut{Session: l.id, Via: "resources/subscribe"}
	subs := &l.subs
	if !l.sess().Info().Stateless {
		method := "resources/subscribe"
		if in.Unsubscribe {
			method = "resources/unsubscribe"
		}
		a, err := s.request(ctx, in.Session, method, map[string]string{"uri": in.URI}, Bounds{})
		if err != nil {
			return out, err
		}
		out.Exchange = &a.Exchange
		if a.Exchange.Error == nil && a.Exchange.Failure == "" {
			subs.mu.Lock()
			subs.uris = setURI(subs.uris, in.URI, !in.Unsubscribe)
			subs.mu.Unlock()
		}
		subs.mu.Lock()
		out.Subscribed = slices.Clone(subs.uris)
		subs.mu.Unlock()
		return out, nil
	}
	out.Via = "subscriptions/listen"
	subs.mu.Lock()
	defer subs.mu.Unlock()
	subs.uris = setURI(subs.uris, in.URI, !in.Unsubscribe)
	if subs.cancel != nil {
		subs.cancel()
		subs.cancel = nil
	}
	if len(subs.uris) > 0 {
		l.mu.Lock()
		before := l.pumped
		l.mu.Unlock()
		lctx, cancel := context.WithCancel(context.Background())
		subs.cancel = cancel
		filter := session.SubscriptionFilter{ResourceSubscriptions: slices.Clone(subs.uris)}
		go func() { _, _ = l.sess().Listen(lctx, filter) }()
		// Updates flow once the server acknowledges the stream: the agent's next step may
		// be the change it wants to see.
		out.Acknowledged = l.waitForMethod(before, "notifications/subscriptions/acknowledged", catchUp)
	}
	out.Subscribed = slices.Clone(subs.uris)
	return out, nil
}

// waitForMethod waits until the timeline holds a frame of method after seq, the stream
// ends or d passes; it reports whether one came.
func (l *live) waitForMethod(after uint64, method string, d time.Duration) bool {
	deadline := time.Now().Add(d)
	timer := time.AfterFunc(d, func() {
		l.mu.Lock()
		l.cond.Broadcast()
		l.mu.Unlock()
	})
	defer timer.Stop()
	l.mu.Lock()
	defer l.mu.Unlock()
	for seen := after; ; {
		for _, e := range l.h.Entries() {
			if e.Ev != nil && e.Ev.Seq > seen && e.Ev.Frame != nil && e.Ev.Frame.Method == method {
				return true
			}
		}
		seen = max(seen, l.pumped)
		if l.ended || !time.Now().Before(deadline) {
			return false
		}
		l.cond.Wait()
	}
}

// setURI adds uri to uris (on) or takes it out.
func setURI(uris []string, uri string, on bool) []string {
	i := slices.Index(uris, uri)
	switch {
	case on && i < 0:
		return append(uris, uri)
	case !on && i >= 0:
		return slices.Delete(uris, i, i+1)
	}
	if uris == nil {
		return []string{}
	}
	return uris
}
