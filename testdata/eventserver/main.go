// Command eventserver is a small MCP server over stdio (revision 2026-07-28) that offers the
// Events extension (io.modelcontextprotocol/events, SEP-3415) as its text describes, written
// apart from mcpscope's demo so that mcpscope is tested against a second reading of it:
//
//	inbox.message   poll and push; replay of the last 50 messages; cursors are opaque
//	                (base64 of "inbox:N"); a message every 300 ms
//	build.finished  push and webhook; no replay (no cursor member at all); a build every 500 ms
//	                with status passed or failed; arguments {"branch": string}
//
// Webhook deliveries follow the Standard Webhooks profile; the callback must be https, or
// http on a loopback address (this fixture is configured to allow loopback). Before the
// first delivery to a URL it sends the verification envelope and needs the challenge back.
//
// With -bad it breaks the rules on purpose: every third inbox message repeats the eventId
// of the one before, build payloads have a numeric status, the first poll with a cursor
// says truncated: true, and a poll with a null cursor returns recent messages instead of
// starting from now.
package main

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

var bad = flag.Bool("bad", false, "break the extension's rules on purpose")

const ext = "io.modelcontextprotocol/events"

var outMu sync.Mutex

func send(v any) {
	b, _ := json.Marshal(v)
	outMu.Lock()
	defer outMu.Unlock()
	os.Stdout.Write(append(b, '\n'))
}

func reply(id json.RawMessage, result map[string]any) {
	result["resultType"] = "complete"
	send(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func fail(id json.RawMessage, code int, msg string, data any) {
	e := map[string]any{"code": code, "message": msg}
	if data != nil {
		e["data"] = data
	}
	send(map[string]any{"jsonrpc": "2.0", "id": id, "error": e})
}

// The upstream: inbox messages numbered from 1, kept for replay; builds, not kept.
var (
	mu       sync.Mutex
	inbox    []map[string]any // message N at index N-1
	builds   int
	watchers = map[int]chan struct{}{} // woken on each new upstream event
	nextW    int
	polled   bool
)

func generate() {
	mt, bt := time.NewTicker(300*time.Millisecond), time.NewTicker(500*time.Millisecond)
	for {
		select {
		case <-mt.C:
			mu.Lock()
			n := len(inbox) + 1
			id := "msg-" + strconv.Itoa(n)
			if *bad && n%3 == 0 {
				id = "msg-" + strconv.Itoa(n-1)
			}
			inbox = append(inbox, map[string]any{"eventId": id, "name": "inbox.message",
				"timestamp": time.Now().UTC().Format(time.RFC3339Nano),
				"data":      map[string]any{"from": "user" + strconv.Itoa(n%4) + "@example.com", "subject": "note " + strconv.Itoa(n)}})
			mu.Unlock()
		case <-bt.C:
			mu.Lock()
			builds++
			mu.Unlock()
		}
		mu.Lock()
		for _, w := range watchers {
			select {
			case w <- struct{}{}:
			default:
			}
		}
		mu.Unlock()
	}
}

func watch() (chan struct{}, func()) {
	mu.Lock()
	defer mu.Unlock()
	nextW++
	k, ch := nextW, make(chan struct{}, 1)
	watchers[k] = ch
	return ch, func() { mu.Lock(); delete(watchers, k); mu.Unlock() }
}

func cursorOf(n int) string {
	return base64.RawURLEncoding.EncodeToString([]byte("inbox:" + strconv.Itoa(n)))
}

func positionOf(c string) (int, bool) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || !strings.HasPrefix(string(b), "inbox:") {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimPrefix(string(b), "inbox:"))
	return n, err == nil && n >= 0
}

const retention = 50

// inboxAfter is the messages after cursor c (nil: none, start from now), the position
// reached, and whether positions were skipped.
func inboxAfter(c *string) ([]map[string]any, int, bool, error) {
	mu.Lock()
	defer mu.Unlock()
	head := len(inbox)
	if c == nil && *bad {
		return append([]map[string]any(nil), inbox[max(0, head-3):]...), head, false, nil // history, not "now"
	}
	if c == nil {
		return nil, head, false, nil
	}
	n, ok := positionOf(*c)
	if !ok || n > head {
		return nil, 0, false, fmt.Errorf("unknown cursor")
	}
	truncated := false
	if n < head-retention {
		n, truncated = head-retention, true
	}
	if *bad && !polled {
		polled, truncated = true, true
	}
	return append([]map[string]any(nil), inbox[n:]...), head, truncated, nil
}

func build(k int, branch string) map[string]any {
	var status any = []string{"passed", "failed"}[k%2]
	if *bad {
		status = k % 2
	}
	return map[string]any{"eventId": "build-" + strconv.Itoa(k), "name": "build.finished",
		"timestamp": time.Now().UTC().Format(time.RFC3339), "data": map[string]any{"branch": branch, "status": status, "number": k}}
}

var types = []map[string]any{
	{"name": "inbox.message", "description": "A message arrived in the inbox.", "delivery": []string{"poll", "push"},
		"inputSchema": map[string]any{"type": "object", "properties": map[string]any{}},
		"payloadSchema": map[string]any{"type": "object", "required": []string{"from", "subject"},
			"properties": map[string]any{"from": map[string]any{"type": "string"}, "subject": map[string]any{"type": "string"}}}},
	{"name": "build.finished", "description": "A CI build finished.", "delivery": []string{"push", "webhook"},
		"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"branch": map[string]any{"type": "string", "default": "main"}}},
		"payloadSchema": map[string]any{"type": "object", "required": []string{"branch", "status"},
			"properties": map[string]any{"branch": map[string]any{"type": "string"}, "number": map[string]any{"type": "integer"},
				"status": map[string]any{"type": "string", "enum": []string{"passed", "failed"}}}}},
}

func offers(name, mode string) (bool, bool) {
	for _, t := range types {
		if t["name"] == name {
			for _, m := range t["delivery"].([]string) {
				if m == mode {
					return true, true
				}
			}
			return true, false
		}
	}
	return false, false
}

type subParams struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
	Cursor    *string        `json:"cursor"`
	Delivery  struct {
		URL    string `json:"url"`
		Secret string `json:"secret"`
	} `json:"delivery"`
}

// check refuses a subscription the extension's errors cover; it reports whether it did.
func check(id json.RawMessage, p subParams, mode string) bool {
	known, offered := offers(p.Name, mode)
	switch {
	case !known:
		fail(id, -32023, "NotFound", map[string]string{"kind": "event"})
	case !offered:
		fail(id, -32026, "Unsupported", map[string]string{"feature": "deliveryMode", "value": mode})
	default:
		return false
	}
	return true
}

var (
	streamsMu sync.Mutex
	streams   = map[string]chan struct{}{} // open push streams by request id
)

func stream(id json.RawMessage, p subParams) {
	stop := make(chan struct{})
	streamsMu.Lock()
	streams[string(id)] = stop
	streamsMu.Unlock()
	meta := map[string]any{"io.modelcontextprotocol/subscriptionId": id}
	note := func(kind string, params map[string]any) {
		params["_meta"] = meta
		send(map[string]any{"jsonrpc": "2.0", "method": "notifications/events/" + kind, "params": params})
	}
	wake, done := watch()
	defer done()
	beat := time.NewTicker(5 * time.Second)
	defer beat.Stop()
	if p.Name == "inbox.message" {
		backlog, pos, truncated, err := inboxAfter(p.Cursor)
		if err != nil {
			fail(id, -32602, "InvalidParams: "+err.Error(), nil)
			return
		}
		note("active", map[string]any{"cursor": cursorOf(pos), "truncated": truncated})
		for {
			for _, m := range backlog {
				pos++
				occ := map[string]any{"cursor": cursorOf(pos)}
				for k, v := range m {
					occ[k] = v
				}
				note("event", occ)
			}
			select {
			case <-stop:
				return
			case <-beat.C:
				note("heartbeat", map[string]any{"cursor": cursorOf(pos)})
			case <-wake:
			}
			c := cursorOf(pos)
			backlog, pos, _, _ = inboxAfter(&c)
			pos -= len(backlog)
		}
	}
	branch, _ := p.Arguments["branch"].(string)
	if branch == "" {
		branch = "main"
	}
	note("active", map[string]any{"truncated": false})
	mu.Lock()
	seen := builds
	mu.Unlock()
	for {
		select {
		case <-stop:
			return
		case <-beat.C:
			note("heartbeat", map[string]any{})
		case <-wake:
		}
		mu.Lock()
		now := builds
		mu.Unlock()
		for ; seen < now; seen++ {
			note("event", build(seen+1, branch))
		}
	}
}

// Webhooks.
var (
	hooksMu  sync.Mutex
	hooks    = map[string]chan struct{}{} // subscription id → stop
	verified = map[string]bool{}
)

func subscribe(id json.RawMessage, p subParams, ttl *int64) {
	u, err := url.Parse(p.Delivery.URL)
	ip := net.ParseIP(u.Hostname())
	if err != nil || !(u.Scheme == "https" || (u.Scheme == "http" && ip != nil && ip.IsLoopback())) {
		fail(id, -32602, "InvalidParams: delivery.url must be https (http only on loopback here)", nil)
		return
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(p.Delivery.Secret, "whsec_"))
	if !strings.HasPrefix(p.Delivery.Secret, "whsec_") || err != nil || len(key) < 24 || len(key) > 64 {
		fail(id, -32602, "InvalidParams: delivery.secret is not a whsec_ secret of 24 to 64 bytes", nil)
		return
	}
	canon, _ := json.Marshal(p.Arguments)
	sum := sha256.Sum256([]byte(p.Delivery.URL + "|" + p.Name + "|" + string(canon)))
	subID := "whsub-" + hex.EncodeToString(sum[:6])
	hooksMu.Lock()
	ok := verified[p.Delivery.URL]
	hooksMu.Unlock()
	if !ok {
		nonce := make([]byte, 8)
		rand.Read(nonce)
		challenge := hex.EncodeToString(nonce)
		body, _ := json.Marshal(map[string]string{"type": "verification", "challenge": challenge})
		answer, status := deliver(p.Delivery.URL, "msg_verification_"+challenge, subID, key, body)
		var echo struct{ Challenge string }
		if status/100 != 2 || json.Unmarshal(answer, &echo) != nil || echo.Challenge != challenge {
			fail(id, -32027, "CallbackEndpointError", map[string]string{"reason": "challenge_failed"})
			return
		}
		hooksMu.Lock()
		verified[p.Delivery.URL] = true
		hooksMu.Unlock()
	}
	grant := 60 * time.Second
	if ttl != nil && *ttl > 0 {
		grant = min(max(time.Duration(*ttl)*time.Millisecond, time.Second), 10*time.Minute)
	}
	hooksMu.Lock()
	if stop := hooks[subID]; stop != nil {
		close(stop)
	}
	stop := make(chan struct{})
	hooks[subID] = stop
	hooksMu.Unlock()
	expires := time.Now().Add(grant)
	go func() {
		branch, _ := p.Arguments["branch"].(string)
		if branch == "" {
			branch = "main"
		}
		wake, done := watch()
		defer done()
		mu.Lock()
		seen := builds
		mu.Unlock()
		for time.Now().Before(expires) {
			select {
			case <-stop:
				return
			case <-wake:
			case <-time.After(time.Until(expires)):
				return
			}
			mu.Lock()
			now := builds
			mu.Unlock()
			for ; seen < now; seen++ {
				occ := build(seen+1, branch)
				body, _ := json.Marshal(occ)
				deliver(p.Delivery.URL, occ["eventId"].(string), subID, key, body)
			}
		}
	}()
	reply(id, map[string]any{"id": subID, "refreshBefore": expires.UTC().Format(time.RFC3339Nano), "cursor": nil, "truncated": false})
}

func deliver(u, msgID, subID string, key, body []byte) ([]byte, int) {
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(msgID + "." + ts + "."))
	mac.Write(body)
	req, err := http.NewRequest(http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return nil, 0
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("webhook-id", msgID)
	req.Header.Set("webhook-timestamp", ts)
	req.Header.Set("webhook-signature", "v1,"+base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	req.Header.Set("X-MCP-Subscription-Id", subID)
	client := &http.Client{Timeout: 5 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		return nil, 0
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	buf.ReadFrom(io.LimitReader(resp.Body, 1<<16))
	return buf.Bytes(), resp.StatusCode
}

func main() {
	flag.Parse()
	go generate()
	fmt.Fprintln(os.Stderr, "eventserver: ready")
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	for in.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil {
			continue
		}
		var p struct {
			subParams
			TTLMs     *int64          `json:"ttlMs"`
			RequestID json.RawMessage `json:"requestId"`
		}
		_ = json.Unmarshal(m.Params, &p)
		switch m.Method {
		case "server/discover":
			reply(m.ID, map[string]any{"supportedVersions": []string{"2026-07-28"},
				"capabilities": map[string]any{"extensions": map[string]any{ext: map[string]any{}}},
				"serverInfo":   map[string]any{"name": "eventserver", "version": "0.1.0"}, "ttlMs": 0, "cacheScope": "public"})
		case "ping":
			reply(m.ID, map[string]any{})
		case "notifications/cancelled":
			streamsMu.Lock()
			if stop := streams[string(p.RequestID)]; stop != nil {
				close(stop)
				delete(streams, string(p.RequestID))
			}
			streamsMu.Unlock()
		case "events/list":
			reply(m.ID, map[string]any{"events": types})
		case "events/poll":
			if check(m.ID, p.subParams, "poll") {
				continue
			}
			evs, pos, truncated, err := inboxAfter(p.Cursor)
			if err != nil {
				fail(m.ID, -32602, "InvalidParams: "+err.Error(), nil)
				continue
			}
			if evs == nil {
				evs = []map[string]any{}
			}
			reply(m.ID, map[string]any{"events": evs, "cursor": cursorOf(pos), "truncated": truncated, "hasMore": false, "nextPollMs": 1000})
		case "events/stream":
			if !check(m.ID, p.subParams, "push") {
				go stream(m.ID, p.subParams)
			}
		case "events/subscribe":
			if !check(m.ID, p.subParams, "webhook") {
				go subscribe(m.ID, p.subParams, p.TTLMs)
			}
		case "events/unsubscribe":
			canon, _ := json.Marshal(p.Arguments)
			sum := sha256.Sum256([]byte(p.Delivery.URL + "|" + p.Name + "|" + string(canon)))
			subID := "whsub-" + hex.EncodeToString(sum[:6])
			hooksMu.Lock()
			stop := hooks[subID]
			delete(hooks, subID)
			hooksMu.Unlock()
			if stop == nil {
				fail(m.ID, -32023, "NotFound", map[string]string{"kind": "subscription"})
				continue
			}
			close(stop)
			reply(m.ID, map[string]any{})
		default:
			if len(m.ID) > 0 {
				fail(m.ID, -32601, "Method not found: "+m.Method, nil)
			}
		}
	}
}
