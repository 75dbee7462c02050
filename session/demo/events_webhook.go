package demo

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/protocol/events"
)

// Webhook delivery (events/subscribe). The demo is a local server for trying a client, so
// it is configured, as the extension allows, to deliver to loopback addresses, and to
// accept http:// for them (a receiver on 127.0.0.1 has no certificate); every other
// callback must be https and is refused with InvalidParams, since the demo delivers only
// on this machine. The principal is the local user: the demo has no other on stdio, and
// without --auth none over HTTP.

// TTL grants: the suggestion, clamped to [hookMinTTL, hookMaxTTL]; no expiry is not granted.
const (
	hookMinTTL     = 2 * time.Second
	hookMaxTTL     = time.Hour
	hookDefaultTTL = 5 * time.Minute
	hookTimeout    = 5 * time.Second
	hookAttempts   = 3
	maxHooks       = 64
)

type hook struct {
	key, id, url string
	e            *eventKind
	args         map[string]any
	mu           sync.Mutex
	secret       []byte
	expires      time.Time
	next         int64 // next position to deliver
	lastDelivery time.Time
	lastError    string
	stop         context.CancelFunc
}

type hookRegistry struct {
	mu       sync.Mutex
	hooks    map[string]*hook
	verified map[string]bool // callback URLs that echoed a challenge
}

func newHookRegistry() *hookRegistry {
	return &hookRegistry{hooks: map[string]*hook{}, verified: map[string]bool{}}
}

type subscribeParams struct {
	mcp.ParamsBase
	subscription
	Delivery struct {
		Mode   string `json:"mode,omitempty"`
		URL    string `json:"url"`
		Secret string `json:"secret,omitempty"`
	} `json:"delivery"`
	TTLMs json.RawMessage `json:"ttlMs,omitempty"`
}

type subscribeResult struct {
	mcp.ResultBase
	ResultType     string         `json:"resultType"`
	ID             string         `json:"id"`
	RefreshBefore  string         `json:"refreshBefore"`
	Cursor         any            `json:"cursor"`
	Truncated      bool           `json:"truncated"`
	DeliveryStatus map[string]any `json:"deliveryStatus,omitempty"`
}

type unsubscribeResult struct {
	mcp.ResultBase
	ResultType string `json:"resultType"`
}

func (d *demo) addWebhookMethods() {
	_ = mcp.AddReceivingCustomMethod(d.server, "events/subscribe", func(ctx context.Context, _ *mcp.ServerSession, p *subscribeParams) (*subscribeResult, error) {
		return d.subscribeHook(ctx, p)
	})
	_ = mcp.AddReceivingCustomMethod(d.server, "events/unsubscribe", func(_ context.Context, _ *mcp.ServerSession, p *subscribeParams) (*unsubscribeResult, error) {
		key := hookKey(p.Delivery.URL, p.Name, p.Arguments)
		reg := d.events.hooks
		reg.mu.Lock()
		h := reg.hooks[key]
		delete(reg.hooks, key)
		reg.mu.Unlock()
		if h == nil {
			return nil, rpcError(codeNotFound, "NotFound: no subscription to "+p.Name+" delivering to that URL with these arguments", map[string]string{"kind": "subscription"})
		}
		h.stop()
		d.log.printf("events/unsubscribe %s: deliveries to %s stopped", p.Name, p.Delivery.URL)
		return &unsubscribeResult{ResultType: "complete"}, nil
	})
}

// hookKey is the subscription key without the principal (the demo has one): url, name and
// the arguments in canonical form.
func hookKey(u, name string, args json.RawMessage) string {
	var v any
	_ = json.Unmarshal(args, &v)
	canon, _ := json.Marshal(v) // maps marshal with sorted keys
	sum := sha256.Sum256([]byte(u + "\x00" + name + "\x00" + string(canon)))
	return hex.EncodeToString(sum[:])
}

// checkCallback allows https anywhere it could deliver and http on loopback only.
func checkCallback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Errorf("delivery.url %q is not an absolute URL", raw)
	}
	ip := net.ParseIP(u.Hostname())
	loopback := u.Hostname() == "localhost" || (ip != nil && ip.IsLoopback())
	switch {
	case !loopback:
		return fmt.Errorf("delivery.url %s: the demo delivers only to this machine (loopback addresses)", raw)
	case u.Scheme != "https" && u.Scheme != "http":
		return fmt.Errorf("delivery.url %s is not https", raw)
	}
	return nil
}

func (d *demo) subscribeHook(ctx context.Context, p *subscribeParams) (*subscribeResult, error) {
	e, args, err := resolve(p.subscription, "webhook")
	if err != nil {
		return nil, err
	}
	if err := checkCallback(p.Delivery.URL); err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
	}
	key, err := events.SecretKey(p.Delivery.Secret)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "delivery.secret: " + err.Error()}
	}
	ttl := hookDefaultTTL
	if len(p.TTLMs) > 0 && string(p.TTLMs) != "null" {
		ms, err := strconv.ParseInt(string(p.TTLMs), 10, 64)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "ttlMs is not an integer"}
		}
		ttl = min(max(time.Duration(ms)*time.Millisecond, hookMinTTL), hookMaxTTL)
	}
	now := time.Now()
	from, truncated, err := d.events.startAfter(e, p.Cursor, p.MaxAgeMs, now)
	if err != nil {
		return nil, err
	}
	reg := d.events.hooks
	k := hookKey(p.Delivery.URL, p.Name, p.Arguments)
	id := "sub_" + k[:16]
	reg.mu.Lock()
	h := reg.hooks[k]
	verified := reg.verified[p.Delivery.URL]
	full := h == nil && len(reg.hooks) >= maxHooks
	reg.mu.Unlock()
	if full {
		return nil, rpcError(-32025, "ResourceExhausted: the demo holds at most 64 webhook subscriptions", map[string]any{"limit": "subscriptions", "max": maxHooks})
	}
	if !verified {
		if reason := d.verifyCallback(ctx, p.Delivery.URL, id, key); reason != "" {
			return nil, rpcError(codeCallback, "CallbackEndpointError: the endpoint did not confirm the subscription", map[string]string{"reason": reason})
		}
		reg.mu.Lock()
		reg.verified[p.Delivery.URL] = true
		reg.mu.Unlock()
	}
	res := &subscribeResult{ResultType: "complete", ID: id, Truncated: truncated}
	reg.mu.Lock()
	if h = reg.hooks[k]; h == nil {
		hctx, stop := context.WithCancel(context.Background())
		h = &hook{key: k, id: id, url: p.Delivery.URL, e: e, args: args, next: from, stop: stop}
		reg.hooks[k] = h
		go d.deliver(hctx, h)
		d.log.printf("events/subscribe %s: delivering to %s", e.name, p.Delivery.URL)
	} else {
		res.DeliveryStatus = h.status()
		d.log.printf("events/subscribe %s: refreshed", e.name)
	}
	reg.mu.Unlock()
	h.mu.Lock()
	h.secret, h.expires = key, now.Add(ttl)
	res.Cursor = d.events.cursor(e, h.next-1)
	h.mu.Unlock()
	res.RefreshBefore = now.Add(ttl).UTC().Format(time.RFC3339Nano)
	return res, nil
}

func (h *hook) status() map[string]any {
	h.mu.Lock()
	defer h.mu.Unlock()
	st := map[string]any{"active": true, "lastError": nil}
	if !h.lastDelivery.IsZero() {
		st["lastDeliveryAt"] = h.lastDelivery.UTC().Format(time.RFC3339)
	}
	if h.lastError != "" {
		st["lastError"] = h.lastError
	}
	return st
}

// verifyCallback sends the verification envelope and checks the echoed challenge; it
// returns "" or the lastError category of the failure.
func (d *demo) verifyCallback(ctx context.Context, u, id string, key []byte) string {
	nonce := make([]byte, 16)
	rand.Read(nonce)
	challenge := hex.EncodeToString(nonce)
	body, _ := json.Marshal(map[string]string{"type": "verification", "challenge": challenge})
	status, answer, reason := postHook(ctx, u, "msg_verification_"+challenge[:12], id, key, body)
	if reason != "" {
		return reason
	}
	if status/100 != 2 {
		return category(status)
	}
	var echo struct {
		Challenge string `json:"challenge"`
	}
	if json.Unmarshal(answer, &echo) != nil || subtle.ConstantTimeCompare([]byte(echo.Challenge), []byte(challenge)) != 1 {
		return "challenge_failed"
	}
	return ""
}

// deliver POSTs h's occurrences as they happen until h is stopped or expires.
func (d *demo) deliver(ctx context.Context, h *hook) {
	tick := time.NewTicker(h.e.period / 4)
	defer tick.Stop()
	defer d.log.printf("webhook %s to %s ended", h.e.name, h.url)
	for {
		var now time.Time
		select {
		case <-ctx.Done():
			return
		case now = <-tick.C:
		}
		h.mu.Lock()
		expired, next, key := now.After(h.expires), h.next, h.secret
		h.mu.Unlock()
		if expired {
			d.events.hooks.drop(h)
			return
		}
		head := d.events.head(h.e, now)
		for ; next <= head; next++ {
			o := d.events.occurrence(h.e, next, h.args)
			if o == nil {
				continue
			}
			body, _ := json.Marshal(o)
			d.attempt(ctx, h, o["eventId"].(string), key, body)
			h.mu.Lock()
			h.next = next + 1
			h.mu.Unlock()
		}
		h.mu.Lock()
		h.next = max(h.next, head+1)
		h.mu.Unlock()
	}
}

// attempt delivers one body, retrying a few times; each attempt is signed afresh.
func (d *demo) attempt(ctx context.Context, h *hook, msgID string, key []byte, body []byte) {
	for i := 0; i < hookAttempts; i++ {
		status, _, reason := postHook(ctx, h.url, msgID, h.id, key, body)
		if reason == "" && status/100 == 2 {
			h.mu.Lock()
			h.lastDelivery, h.lastError = time.Now(), ""
			h.mu.Unlock()
			return
		}
		if reason == "" {
			reason = category(status)
		}
		h.mu.Lock()
		h.lastError = reason
		h.mu.Unlock()
		if status == http.StatusGone || status == http.StatusRequestEntityTooLarge || ctx.Err() != nil {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Duration(200<<i) * time.Millisecond):
		}
	}
}

func (r *hookRegistry) drop(h *hook) {
	r.mu.Lock()
	if r.hooks[h.key] == h {
		delete(r.hooks, h.key)
	}
	r.mu.Unlock()
	h.stop()
}

// hookClient follows no redirect: a redirect could reach an address the checks refused.
var hookClient = &http.Client{Timeout: hookTimeout, CheckRedirect: func(*http.Request, []*http.Request) error {
	return http.ErrUseLastResponse
}}

// postHook sends one signed delivery and returns the status, at most 64 KiB of the answer, or
// the lastError category of a failure to get one.
func postHook(ctx context.Context, u, msgID, subID string, key, body []byte) (int, []byte, string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return 0, nil, "connection_refused"
	}
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(events.HeaderID, msgID)
	req.Header.Set(events.HeaderTimestamp, ts)
	req.Header.Set(events.HeaderSignature, events.Sign(key, msgID, ts, body))
	req.Header.Set(events.HeaderSubscriptionID, subID)
	resp, err := hookClient.Do(req)
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return 0, nil, "timeout"
		}
		return 0, nil, "connection_refused"
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	return resp.StatusCode, answer, ""
}

func category(status int) string {
	if status >= 500 {
		return "http_5xx"
	}
	return "http_4xx"
}
