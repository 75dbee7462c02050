package session

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/events"
	"github.com/mcpscope/mcpscope/session/transport"
)

// maxDeliveryBody bounds one webhook delivery read by the receiver; the extension asks
// servers to stay at or under 256 KiB and lets receivers answer 413 past that.
const maxDeliveryBody = 256 << 10

// WebhookReceiver receives a webhook subscription's deliveries: an HTTP server on a
// loopback address by default, with a path no one can guess, which verifies every POST's
// Standard Webhooks signature with the secret it generated, answers the verification
// challenge, checks each occurrence (Tracker) and publishes each POST as an HTTP exchange
// of the session (purpose "webhook") carrying the verdict and findings.
type WebhookReceiver struct {
	s   *Session
	tr  *events.Tracker
	on  func(Delivery)
	srv *http.Server
	ln  net.Listener
	key []byte

	// Secret is the whsec_ secret given to the server in delivery.secret.
	Secret string
	// Local is the address the receiver listens on; CallbackURL is what the server is told
	// (Local, or the public URL given, with the same path).
	Local, CallbackURL string

	mu    sync.Mutex
	subID string // from the subscribe result, once known
}

// Delivery is one POST the receiver got.
type Delivery struct {
	Time       time.Time
	Header     http.Header
	Body       []byte
	Verdict    events.Verdict
	Envelope   *events.Envelope   // a control envelope (gap, terminated, verification)
	Occurrence *events.Occurrence // an event
	Findings   []protocol.Finding
	Status     int // what the receiver answered
}

// NewWebhookReceiver starts a receiver on addr ("" is 127.0.0.1:0). public, when not "",
// is the https URL that reaches addr from the server (a tunnel): the callback becomes
// public with the receiver's path appended. on is called for every POST, in its own
// goroutine's order.
func (s *Session) NewWebhookReceiver(addr, public string, tr *events.Tracker, on func(Delivery)) (*WebhookReceiver, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("webhook receiver: %w", err)
	}
	nonce := make([]byte, 12)
	rand.Read(nonce)
	path := "/hooks/" + hex.EncodeToString(nonce)
	r := &WebhookReceiver{s: s, tr: tr, on: on, ln: ln, Secret: events.NewSecret()}
	r.key, _ = events.SecretKey(r.Secret)
	r.Local = "http://" + ln.Addr().String() + path
	r.CallbackURL = r.Local
	if public != "" {
		r.CallbackURL = strings.TrimRight(public, "/") + path
	}
	mux := http.NewServeMux()
	mux.HandleFunc(path, r.serve)
	r.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second}
	go func() { _ = r.srv.Serve(ln) }()
	return r, nil
}

// Close stops the receiver.
func (r *WebhookReceiver) Close() error { return r.srv.Close() }

func (r *WebhookReceiver) setSubID(id string) {
	r.mu.Lock()
	r.subID = id
	r.mu.Unlock()
}

func (r *WebhookReceiver) serve(w http.ResponseWriter, req *http.Request) {
	start := time.Now()
	d := Delivery{Time: start, Header: req.Header.Clone()}
	answer := func(status int, body string) {
		d.Status = status
		if body != "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
		r.report(req, d, body, time.Since(start))
		if r.on != nil {
			r.on(d)
		}
	}
	if req.Method != http.MethodPost {
		d.Findings = append(d.Findings, protocol.NewFinding(protocol.FindEventsSignature, "a %s to the webhook receiver: deliveries are POST only", req.Method))
		answer(http.StatusMethodNotAllowed, "")
		return
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, maxDeliveryBody+1))
	d.Body = body
	if err != nil {
		answer(http.StatusBadRequest, "")
		return
	}
	if len(body) > maxDeliveryBody {
		d.Body = body[:maxDeliveryBody]
		answer(http.StatusRequestEntityTooLarge, "") // the server must not retry it
		return
	}
	d.Verdict = events.Verify(r.key, req.Header.Get(events.HeaderID), req.Header.Get(events.HeaderTimestamp),
		req.Header.Get(events.HeaderSignature), body, time.Now())
	if !d.Verdict.OK {
		d.Findings = append(d.Findings, protocol.NewFinding(protocol.FindEventsSignature, "webhook delivery %s: %s", req.Header.Get(events.HeaderID), d.Verdict.Reason))
		answer(http.StatusUnauthorized, "")
		return
	}
	if d.Verdict.Stale {
		d.Findings = append(d.Findings, protocol.NewFinding(protocol.FindEventsStale, "webhook delivery %s: webhook-timestamp %s is more than 5 minutes from now",
			req.Header.Get(events.HeaderID), req.Header.Get(events.HeaderTimestamp)))
		answer(http.StatusBadRequest, "")
		return
	}
	r.mu.Lock()
	want := r.subID
	r.mu.Unlock()
	if got := req.Header.Get(events.HeaderSubscriptionID); got == "" || (want != "" && got != want) {
		d.Findings = append(d.Findings, protocol.NewFinding(protocol.FindEventsSignature,
			"webhook delivery %s: %s is %q, the subscription is %q", req.Header.Get(events.HeaderID), events.HeaderSubscriptionID, got, want))
	}
	env, occ := events.ParseWebhookBody(body)
	d.Envelope, d.Occurrence = env, occ
	d.Findings = append(d.Findings, events.CheckWebhookID(req.Header.Get(events.HeaderID), env, occ)...)
	switch {
	case env != nil && env.Type == "verification":
		echo, _ := json.Marshal(map[string]string{"challenge": env.Challenge})
		answer(http.StatusOK, string(echo))
		return
	case env != nil && env.Type == "gap":
		if r.tr != nil {
			d.Findings = append(d.Findings, r.tr.Position(env.Cursor, true, "gap envelope")...)
		}
	case occ != nil:
		d.Findings = append(d.Findings, occ.Findings...)
		if r.tr != nil {
			d.Findings = append(d.Findings, r.tr.Occurrence(occ)...)
			d.Findings = append(d.Findings, r.tr.Position(occ.Cursor, false, "occurrence "+occ.EventID)...)
		}
	}
	answer(http.StatusOK, "")
}

// report publishes the delivery as an HTTP exchange of the session: the POST as received,
// its signature verdict and findings, and what the receiver answered.
func (r *WebhookReceiver) report(req *http.Request, d Delivery, answer string, took time.Duration) {
	ex := &transport.HTTPExchange{Purpose: "webhook", Method: req.Method, URL: r.Local, ReqHeaders: d.Header,
		Status: d.Status, ContentType: req.Header.Get("Content-Type"), Started: d.Time, Duration: took,
		Step: "delivery", ReqBody: string(d.Body), RespBody: answer}
	if d.Envelope != nil {
		ex.Step = d.Envelope.Type
	}
	if d.Verdict.Reason != "" {
		verdict := "signature verified: " + d.Verdict.Reason
		if !d.Verdict.OK {
			verdict = "signature NOT verified: " + d.Verdict.Reason
		}
		ex.Checks = append(ex.Checks, verdict)
	}
	for _, f := range d.Findings {
		ex.Problems = append(ex.Problems, transport.AuthProblem{Code: f.Code, Text: f.Message})
	}
	r.s.ReportHTTP(ex)
}

// WebhookParams are the events/subscribe params for sub delivered to r, with ttl suggested
// (0: the server's default).
func (r *WebhookReceiver) params(sub EventSub, ttl time.Duration) map[string]any {
	p := sub.params()
	p["delivery"] = map[string]any{"mode": "webhook", "url": r.CallbackURL, "secret": r.Secret}
	if ttl > 0 {
		p["ttlMs"] = ttl.Milliseconds()
	}
	return p
}

// SubscribeWebhook sends one events/subscribe (a first subscribe or a refresh: the same
// key refreshes). The result's findings go on the response frame.
func (s *Session) SubscribeWebhook(ctx context.Context, sub EventSub, r *WebhookReceiver, ttl time.Duration) (events.SubscribeResult, *Response, error) {
	var res events.SubscribeResult
	check := func(result json.RawMessage) []protocol.Finding {
		res = events.ParseSubscribe(result, false)
		fs := res.Findings
		if r.tr != nil {
			fs = append(fs, r.tr.Position(res.Cursor, res.Truncated, "events/subscribe")...)
		}
		return fs
	}
	resp, err := s.Call(ctx, "events/subscribe", r.params(sub, ttl), withCheck(check))
	if err == nil && res.ID != "" {
		r.setSubID(res.ID)
	}
	return res, resp, err
}

// UnsubscribeWebhook ends the subscription now (events/unsubscribe). Its params are the
// subscription key the principal aside: name, arguments and delivery.url, nothing else.
func (s *Session) UnsubscribeWebhook(ctx context.Context, sub EventSub, r *WebhookReceiver) (*Response, error) {
	p := sub.params()
	delete(p, "cursor")
	delete(p, "maxAgeMs")
	p["delivery"] = map[string]any{"url": r.CallbackURL}
	return s.Call(ctx, "events/unsubscribe", p)
}

// HoldWebhook subscribes sub to r and keeps the subscription alive until ctx ends: it
// refreshes before each refreshBefore (with the last cursor it holds), then unsubscribes.
// onResult is told each subscribe's outcome. It returns the first subscribe's error, or
// the unsubscribe's.
func (s *Session) HoldWebhook(ctx context.Context, sub EventSub, r *WebhookReceiver, ttl time.Duration, onResult func(events.SubscribeResult, *Response, error)) error {
	res, resp, err := s.SubscribeWebhook(ctx, sub, r, ttl)
	if onResult != nil {
		onResult(res, resp, err)
	}
	if err != nil {
		return err
	}
	for {
		wait := time.Hour
		if res.RefreshBefore != nil {
			left := time.Until(*res.RefreshBefore)
			wait = max(left-max(left/5, 500*time.Millisecond), 100*time.Millisecond)
		}
		select {
		case <-ctx.Done():
			uctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, err := s.UnsubscribeWebhook(uctx, sub, r)
			if errors.Is(err, ErrClosed) {
				return nil
			}
			return err
		case <-time.After(wait):
		}
		if r.tr != nil {
			sub.Cursor = r.tr.Last() // the latest cursor from a delivery or a refresh
		} else if res.Cursor != nil {
			sub.Cursor = res.Cursor
		}
		next, resp, err := s.SubscribeWebhook(ctx, sub, r, ttl)
		if onResult != nil {
			onResult(next, resp, err)
		}
		if err == nil {
			res = next
		} else if ctx.Err() == nil {
			t := time.Now().Add(2 * time.Second) // try again in a while rather than in a loop
			res.RefreshBefore = &t
		}
	}
}
