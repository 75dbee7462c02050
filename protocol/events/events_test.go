package events

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
)

func codes(fs []protocol.Finding) string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Code)
	}
	return strings.Join(out, ",")
}

// The listing example of the extension's text, and entries that break its rules.
func TestParseType(t *testing.T) {
	good := ParseType(json.RawMessage(`{"name":"incident.created","description":"d","delivery":["webhook","push","poll"],
		"inputSchema":{"type":"object","properties":{"severity":{"type":"string","enum":["P1","P2"]}}},
		"payloadSchema":{"type":"object"},"_meta":{}}`))
	if len(good.Findings) != 0 || !good.Offers(ModePush) || good.Name != "incident.created" {
		t.Fatalf("good entry: %+v", good)
	}
	for _, raw := range []string{
		`{"delivery":["poll"],"inputSchema":{},"payloadSchema":{}}`,
		`{"name":"x","delivery":[],"inputSchema":{},"payloadSchema":{}}`,
		`{"name":"x","delivery":["sms"],"inputSchema":{},"payloadSchema":{}}`,
		`{"name":"x","delivery":["poll"],"payloadSchema":{}}`,
		`{"name":"x","delivery":["poll"],"inputSchema":{},"payloadSchema":true}`,
		`[]`,
	} {
		if got := ParseType(json.RawMessage(raw)); codes(got.Findings) == "" {
			t.Errorf("%s: no finding", raw)
		}
	}
}

func TestParsePollAndOccurrence(t *testing.T) {
	r := ParsePoll(json.RawMessage(`{"resultType":"complete","events":[{"eventId":"evt_001","name":"email.received",
		"timestamp":"2026-02-19T15:30:00Z","data":{"messageId":"m"}},{"eventId":"","name":"x","timestamp":"yesterday","data":[1]}],
		"cursor":"historyId_99842","truncated":false,"hasMore":false,"nextPollMs":30000}`))
	if len(r.Findings) != 0 || r.Cursor == nil || *r.Cursor != "historyId_99842" || r.NextPollMs == nil || *r.NextPollMs != 30000 {
		t.Fatalf("poll: %+v", r)
	}
	if len(r.Events) != 2 || len(r.Events[0].Findings) != 0 {
		t.Fatalf("first occurrence: %+v", r.Events)
	}
	if got := len(r.Events[1].Findings); got != 3 { // no eventId, timestamp, data not an object
		t.Fatalf("second occurrence has %d findings: %v", got, r.Events[1].Findings)
	}
	// Absent cursor means null.
	if r := ParsePoll(json.RawMessage(`{"events":[]}`)); r.Cursor != nil || len(r.Findings) != 0 {
		t.Fatalf("absent cursor: %+v", r)
	}
}

func TestParseNote(t *testing.T) {
	n := ParseNote("notifications/events/event", json.RawMessage(`{"eventId":"evt_001","name":"email.received",
		"timestamp":"2026-02-19T15:30:00Z","data":{"a":1},"cursor":"c2","_meta":{"io.modelcontextprotocol/subscriptionId":1}}`))
	if n.Kind != NoteEvent || string(n.SubscriptionID) != "1" || n.Occurrence == nil || len(n.Occurrence.Findings) != 0 || *n.Cursor != "c2" {
		t.Fatalf("event note: %+v", n)
	}
	if strings.Contains(string(n.Occurrence.Raw), "_meta") {
		t.Fatalf("the occurrence keeps _meta: %s", n.Occurrence.Raw)
	}
	a := ParseNote("notifications/events/active", json.RawMessage(`{"cursor":"c","truncated":true,"_meta":{"io.modelcontextprotocol/subscriptionId":"s"}}`))
	if !a.Truncated || len(a.Findings) != 0 {
		t.Fatalf("active: %+v", a)
	}
	if h := ParseNote("notifications/events/heartbeat", json.RawMessage(`{"cursor":null}`)); codes(h.Findings) != protocol.FindEventsStream {
		t.Fatalf("a heartbeat without subscriptionId: %v", h.Findings)
	}
	e := ParseNote("notifications/events/terminated", json.RawMessage(`{"error":{"code":-32024,"message":"Forbidden"},"_meta":{"io.modelcontextprotocol/subscriptionId":1}}`))
	if e.Error == nil || e.Error.Code != -32024 {
		t.Fatalf("terminated: %+v", e)
	}
}

func TestParseSubscribe(t *testing.T) {
	r := ParseSubscribe(json.RawMessage(`{"id":"sub_a","refreshBefore":"2026-02-19T16:30:00Z","cursor":"c","truncated":false}`), false)
	if len(r.Findings) != 0 || r.RefreshBefore == nil || r.ID != "sub_a" {
		t.Fatalf("subscribe: %+v", r)
	}
	if r := ParseSubscribe(json.RawMessage(`{"id":"sub_a","refreshBefore":null}`), false); codes(r.Findings) != protocol.FindEventsSubscribe {
		t.Fatalf("null grant not asked for: %v", r.Findings)
	}
	if r := ParseSubscribe(json.RawMessage(`{"id":"sub_a","refreshBefore":null}`), true); len(r.Findings) != 0 {
		t.Fatalf("null grant asked for: %v", r.Findings)
	}
	if r := ParseSubscribe(json.RawMessage(`{"refreshBefore":"soon"}`), false); len(r.Findings) != 2 {
		t.Fatalf("no id, bad time: %v", r.Findings)
	}
	// deliveryStatus as the extension's examples give it draws nothing.
	for _, st := range []string{
		`{"active":true,"lastDeliveryAt":"2026-02-19T16:28:00Z","lastError":null}`,
		`{"active":false,"lastDeliveryAt":"2026-02-19T15:45:00Z","lastError":"http_4xx","failedSince":"2026-02-19T15:50:00Z"}`,
		`{"active":true,"lastError":null,"throttled":true,"retryAfterMs":60000}`,
	} {
		r := ParseSubscribe(json.RawMessage(`{"id":"sub_a","refreshBefore":"2026-02-19T17:00:00Z","cursor":"c","truncated":false,"deliveryStatus":`+st+`}`), false)
		if len(r.Findings) != 0 || r.Status == nil {
			t.Fatalf("%s: %v", st, r.Findings)
		}
	}
	// lastError is a fixed category, never the endpoint's answer; the flags are booleans.
	for _, st := range []string{
		`{"active":true,"lastError":"HTTP/1.1 403 Forbidden: bad token"}`,
		`{"active":"yes","lastError":null}`,
		`{"active":true,"throttled":true,"retryAfterMs":"soon"}`,
		`"failing"`,
	} {
		r := ParseSubscribe(json.RawMessage(`{"id":"sub_a","refreshBefore":"2026-02-19T17:00:00Z","deliveryStatus":`+st+`}`), false)
		if codes(r.Findings) != protocol.FindEventsSubscribe {
			t.Fatalf("%s: %v", st, r.Findings)
		}
	}
}

// The signature example of Standard Webhooks, by the extension's profile: the HMAC over
// id.timestamp.body with the key after whsec_.
func TestVerify(t *testing.T) {
	secret := NewSecret()
	key, err := SecretKey(secret)
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"eventId":"evt_789","name":"incident.created","timestamp":"2026-02-19T16:00:00Z","data":{}}`)
	now := time.Unix(1739980800, 0)
	sig := Sign(key, "evt_789", "1739980800", body)
	if v := Verify(key, "evt_789", "1739980800", sig, body, now); !v.OK || v.Stale {
		t.Fatalf("a good signature: %+v", v)
	}
	if v := Verify(key, "evt_789", "1739980800", "v1,AAAA "+sig, body, now); !v.OK {
		t.Fatalf("rotation (two signatures): %+v", v)
	}
	if v := Verify(key, "evt_789", "1739980800", sig, append(body, ' '), now); v.OK {
		t.Fatal("a changed body verifies")
	}
	if v := Verify(key, "evt_789", "1739980800", sig, body, now.Add(6*time.Minute)); !v.OK || !v.Stale {
		t.Fatalf("stale: %+v", v)
	}
	if v := Verify(key, "evt_789", "1739980800", "", body, now); v.OK {
		t.Fatal("no signature verifies")
	}
	for _, bad := range []string{"whsec_", "sec_AAAA", "whsec_" + strings.Repeat("A", 8), "whsec_!!"} {
		if _, err := SecretKey(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestTracker(t *testing.T) {
	typ := ParseType(json.RawMessage(`{"name":"n","delivery":["poll"],"inputSchema":{"type":"object"},
		"payloadSchema":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}}`))
	tr := NewTracker(typ)
	c := "c1"
	ok := ParseOccurrence(json.RawMessage(`{"eventId":"e1","name":"n","timestamp":"2026-01-01T00:00:00Z","data":{"n":1},"cursor":"c1"}`))
	if fs := tr.Occurrence(&ok); len(fs) != 0 {
		t.Fatalf("good occurrence: %v", fs)
	}
	dup := ok
	dup.Findings = nil
	if fs := tr.Occurrence(&dup); codes(fs) != protocol.FindEventsDuplicate {
		t.Fatalf("duplicate: %v", fs)
	}
	bad := ParseOccurrence(json.RawMessage(`{"eventId":"e2","name":"n","timestamp":"2026-01-01T00:00:00Z","data":{"n":"one"},"cursor":"c2"}`))
	if fs := tr.Occurrence(&bad); codes(fs) != protocol.FindEventsPayload || !strings.Contains(fs[0].Message, "/n") {
		t.Fatalf("payload: %v", fs)
	}
	if fs := tr.Position(&c, true, "poll"); codes(fs) != protocol.FindEventsTruncated {
		t.Fatalf("truncated: %v", fs)
	}
	if fs := tr.Position(nil, false, "poll"); codes(fs) != protocol.FindEventsCursor {
		t.Fatalf("replay changed its mind: %v", fs)
	}
	if n, d := tr.Counts(); n != 3 || d != 1 {
		t.Fatalf("counts %d %d", n, d)
	}
}

// A payloadSchema that refers elsewhere is not fetched.
func TestCompileNoFetch(t *testing.T) {
	if _, err := Compile(json.RawMessage(`{"$ref":"https://example.com/s.json"}`)); err == nil {
		t.Fatal("a remote $ref compiled")
	}
}

// TestCheckWebhookID: webhook-id is the eventId of an event delivery and msg_<type>_<random>
// for a control envelope.
func TestCheckWebhookID(t *testing.T) {
	occ := ParseOccurrence(json.RawMessage(`{"eventId":"evt_789","name":"incident.created","timestamp":"2026-02-19T16:00:00Z","data":{}}`))
	env, _ := ParseWebhookBody([]byte(`{"type":"verification","challenge":"n"}`))
	for _, c := range []struct {
		id   string
		env  *Envelope
		occ  *Occurrence
		want string
	}{
		{"evt_789", nil, &occ, ""},
		{"msg_verification_3f9a", env, nil, ""},
		{"msg_1", nil, &occ, protocol.FindEventsSignature},
		{"evt_789", env, nil, protocol.FindEventsSignature},
		{"msg_verification_", env, nil, protocol.FindEventsSignature},
	} {
		if got := codes(CheckWebhookID(c.id, c.env, c.occ)); got != c.want {
			t.Errorf("%s: %q, want %q", c.id, got, c.want)
		}
	}
}
