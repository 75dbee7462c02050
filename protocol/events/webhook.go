package events

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
)

// The headers of a webhook delivery: Standard Webhooks' three and the extension's one.
const (
	HeaderID             = "webhook-id"
	HeaderTimestamp      = "webhook-timestamp"
	HeaderSignature      = "webhook-signature"
	HeaderSubscriptionID = "X-MCP-Subscription-Id"
)

// SecretPrefix starts a Standard Webhooks symmetric secret.
const SecretPrefix = "whsec_"

// MaxSkew is how far a delivery's webhook-timestamp may be from now before it is stale.
const MaxSkew = 5 * time.Minute

// NewSecret makes a signing secret: whsec_ and the base64 of 32 random bytes.
func NewSecret() string {
	b := make([]byte, 32)
	rand.Read(b) // never fails; see crypto/rand.Read
	return SecretPrefix + base64.StdEncoding.EncodeToString(b)
}

// SecretKey decodes a whsec_ secret to its key bytes; the extension requires 24 to 64.
func SecretKey(secret string) ([]byte, error) {
	rest, ok := strings.CutPrefix(secret, SecretPrefix)
	if !ok {
		return nil, fmt.Errorf("the secret does not start with %s", SecretPrefix)
	}
	key, err := base64.StdEncoding.DecodeString(rest)
	if err != nil {
		return nil, fmt.Errorf("the secret after %s is not base64: %w", SecretPrefix, err)
	}
	if len(key) < 24 || len(key) > 64 {
		return nil, fmt.Errorf("the secret decodes to %d bytes, not 24 to 64", len(key))
	}
	return key, nil
}

// Sign is the signature header value for one delivery: v1,base64(HMAC-SHA256(key,
// id.timestamp.body)).
func Sign(key []byte, id, timestamp string, body []byte) string {
	return "v1," + base64.StdEncoding.EncodeToString(mac(key, id, timestamp, body))
}

func mac(key []byte, id, timestamp string, body []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(id + "." + timestamp + "."))
	h.Write(body)
	return h.Sum(nil)
}

// Verdict is what a receiver concluded about one delivery's signature.
type Verdict struct {
	OK     bool   `json:"ok"`
	Stale  bool   `json:"stale,omitempty"` // the timestamp is more than MaxSkew from now
	Reason string `json:"reason"`          // why not, or which signature verified
}

// Verify checks a delivery's Standard Webhooks signature over the raw body with key. The
// header may hold several space-separated signatures (rotation): any v1 one verifying is
// enough; v1a (asymmetric) signatures are skipped. now judges staleness.
func Verify(key []byte, id, timestamp, header string, body []byte, now time.Time) Verdict {
	switch {
	case id == "":
		return Verdict{Reason: "no " + HeaderID + " header"}
	case timestamp == "":
		return Verdict{Reason: "no " + HeaderTimestamp + " header"}
	case header == "":
		return Verdict{Reason: "no " + HeaderSignature + " header"}
	}
	secs, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return Verdict{Reason: HeaderTimestamp + " is not Unix seconds"}
	}
	want := mac(key, id, timestamp, body)
	v := Verdict{Reason: "no v1 signature matches the subscription's secret"}
	for i, sig := range strings.Fields(header) {
		b64, ok := strings.CutPrefix(sig, "v1,")
		if !ok {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(b64)
		if err == nil && hmac.Equal(got, want) {
			v = Verdict{OK: true, Reason: fmt.Sprintf("signature %d of the header verifies", i+1)}
			break
		}
	}
	skew := now.Sub(time.Unix(secs, 0))
	if skew > MaxSkew || skew < -MaxSkew {
		v.Stale = true
	}
	return v
}

// CheckWebhookID checks a verified delivery's webhook-id against its body, by the
// extension's profile of Standard Webhooks: an event's is its eventId, a control
// envelope's msg_<type>_<random>.
func CheckWebhookID(id string, env *Envelope, occ *Occurrence) []protocol.Finding {
	switch {
	case occ != nil && occ.EventID != "" && id != occ.EventID:
		return []protocol.Finding{protocol.NewFinding(protocol.FindEventsSignature,
			"webhook delivery %s: %s is not the event's eventId %s", id, HeaderID, occ.EventID)}
	case env != nil && env.Type != "" && (!strings.HasPrefix(id, "msg_"+env.Type+"_") || id == "msg_"+env.Type+"_"):
		return []protocol.Finding{protocol.NewFinding(protocol.FindEventsSignature,
			"webhook delivery %s: a %s envelope's %s is msg_%s_ and a random part", id, env.Type, HeaderID, env.Type)}
	}
	return nil
}
