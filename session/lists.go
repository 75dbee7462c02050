package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
)

// ListKind names one of the server's paginated lists.
type ListKind string

const (
	ListTools     ListKind = "tools"
	ListResources ListKind = "resources"
	ListTemplates ListKind = "resourceTemplates"
	ListPrompts   ListKind = "prompts"
)

// ListKinds in display order.
var ListKinds = []ListKind{ListTools, ListResources, ListTemplates, ListPrompts}

// Method is the method that lists k ("tools/list").
func (k ListKind) Method() string {
	switch k {
	case ListTools:
		return "tools/list"
	case ListResources:
		return "resources/list"
	case ListTemplates:
		return "resources/templates/list"
	case ListPrompts:
		return "prompts/list"
	}
	return string(k) + "/list"
}

// NotServed reports whether err, from listing kind, is a server saying it has none of
// that list (protocol.NotServed: -32601 to resources/templates/list) rather than a failure.
func NotServed(kind ListKind, err error) bool {
	var rpc *RPCError
	return errors.As(err, &rpc) && protocol.NotServed(kind.Method(), rpc.Code)
}

// maxPages bounds a cursor loop against a server that never stops paginating.
const maxPages = 1000

// List fetches every page of a list and caches it. Each item is the raw JSON object the
// server sent.
func (s *Session) List(ctx context.Context, kind ListKind) ([]json.RawMessage, error) {
	var items []json.RawMessage
	seen := map[string]bool{}
	cursor := ""
	for page := 0; ; page++ {
		if page == maxPages {
			return items, fmt.Errorf("%s: gave up after %d pages", kind.Method(), maxPages)
		}
		var params any
		if cursor != "" {
			params = map[string]string{"cursor": cursor}
		}
		resp, err := s.Call(ctx, kind.Method(), params)
		if err != nil {
			return items, err
		}
		// The page is cut with protocol's scanner, which has no nesting limit: an item nested
		// too deeply to decode is still listed, exactly as sent (its frame has the finding).
		members, ok := protocol.ObjectMembers(resp.Result)
		if !ok {
			return items, fmt.Errorf("%s: the result is not a JSON object", kind.Method())
		}
		res := map[string]json.RawMessage{}
		for _, m := range members {
			res[m.Key] = m.Value
		}
		var pageItems []json.RawMessage
		if raw, ok := res[string(kind)]; ok {
			if pageItems, ok = protocol.ArrayElements(raw); !ok {
				return items, fmt.Errorf("%s: %q is a %s, not an array", kind.Method(), kind, protocol.JSONType(raw))
			}
		}
		items = append(items, pageItems...)
		var next string
		if raw, ok := res["nextCursor"]; ok {
			_ = json.Unmarshal(raw, &next)
		}
		if next == "" {
			break
		}
		if seen[next] {
			return items, fmt.Errorf("%s: the server repeated cursor %q", kind.Method(), next)
		}
		seen[next] = true
		cursor = next
	}
	if items == nil {
		items = []json.RawMessage{}
	}
	s.mu.Lock()
	s.lists[kind] = items
	if kind == ListTools {
		s.learnToolHeadersLocked(items)
	}
	s.listed[kind] = true
	s.mu.Unlock()
	return items, nil
}

// Cached returns the last fetched copy of a list, and whether it was ever fetched.
func (s *Session) Cached(kind ListKind) ([]json.RawMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lists[kind], s.listed[kind]
}

// refreshList fetches a list again after a list_changed notification, in the background, and
// publishes an EvLists event when it is in. Notifications arriving during a refresh coalesce.
func (s *Session) refreshList(kind ListKind) {
	s.mu.Lock()
	if s.refreshes[kind] || s.state == StateClosed {
		s.mu.Unlock()
		return
	}
	s.refreshes[kind] = true
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		ctx, cancel := context.WithTimeout(s.ctx, s.cfg.RequestTimeout+time.Second)
		items, err := s.List(ctx, kind)
		cancel()
		s.mu.Lock()
		s.refreshes[kind] = false
		text := strconv.Itoa(len(items)) + " items after list_changed"
		if err != nil {
			text = "refresh failed: " + err.Error()
		}
		if s.ctx.Err() == nil {
			s.emit(&Event{Kind: EvLists, Note: string(kind), Text: text})
		}
		s.mu.Unlock()
	}()
}

// Ping sends ping and returns the round-trip time.
func (s *Session) Ping(ctx context.Context) (time.Duration, error) {
	resp, err := s.Call(ctx, "ping", nil)
	if err != nil {
		return 0, err
	}
	return resp.Latency, nil
}

// SetLogLevel asks the server for log messages at level and above (logging/setLevel; in the
// 2026-07-28 era the level rides on every request's _meta instead).
func (s *Session) SetLogLevel(ctx context.Context, level string) error {
	if s.Info().Stateless {
		s.mu.Lock()
		s.cfg.LogLevel = level
		s.mu.Unlock()
		return nil
	}
	_, err := s.Call(ctx, "logging/setLevel", map[string]string{"level": level})
	return err
}

// Subscribe asks for notifications/resources/updated about uri (resources/subscribe).
func (s *Session) SubscribeResource(ctx context.Context, uri string) error {
	_, err := s.Call(ctx, "resources/subscribe", map[string]string{"uri": uri})
	return err
}

// UnsubscribeResource undoes SubscribeResource.
func (s *Session) UnsubscribeResource(ctx context.Context, uri string) error {
	_, err := s.Call(ctx, "resources/unsubscribe", map[string]string{"uri": uri})
	return err
}

// SubscriptionFilter is what a 2026-07-28 subscriptions/listen stream opts in to.
type SubscriptionFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
}

// Listen opens a 2026-07-28 subscriptions/listen stream. It has no timeout: it stays open
// until ctx ends or the server ends it; its notifications arrive as events meanwhile.
func (s *Session) Listen(ctx context.Context, filter SubscriptionFilter) (*Response, error) {
	return s.Call(ctx, "subscriptions/listen", map[string]any{"notifications": filter}, WithTimeout(-1))
}

// Complete asks for completion/complete suggestions. ref is {"type":"ref/prompt","name":...}
// or {"type":"ref/resource","uri":...}.
func (s *Session) Complete(ctx context.Context, ref map[string]string, arg, value string, context map[string]string) ([]string, error) {
	params := map[string]any{"ref": ref, "argument": map[string]string{"name": arg, "value": value}}
	if len(context) > 0 {
		params["context"] = map[string]any{"arguments": context}
	}
	resp, err := s.Call(ctx, "completion/complete", params)
	if err != nil {
		return nil, err
	}
	var res struct {
		Completion struct {
			Values []string `json:"values"`
		} `json:"completion"`
	}
	if err := json.Unmarshal(resp.Result, &res); err != nil {
		return nil, fmt.Errorf("completion/complete: %w", err)
	}
	return res.Completion.Values, nil
}
