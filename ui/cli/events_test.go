package cli_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// eventLines parses the NDJSON of an events command.
func eventLines(t *testing.T, stdout string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("not NDJSON: %q: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

func kinds(lines []map[string]any) string {
	var ks []string
	for _, l := range lines {
		ks = append(ks, l["kind"].(string))
	}
	return strings.Join(ks, ",")
}

// TestEventsHeadless runs events list, stream and webhook against the built-in demo: NDJSON
// on stdout, --count ends them, every occurrence valid and every delivery verified, and
// the webhook subscription removed on the way out.
func TestEventsHeadless(t *testing.T) {
	var types []struct{ Name string }
	if err := json.Unmarshal([]byte(runOK(t, "events", "list")), &types); err != nil || len(types) != 3 {
		t.Fatalf("events list: %v %+v", err, types)
	}
	lines := eventLines(t, runOK(t, "events", "stream", "clock.tick", "every=1", "--count", "2"))
	if kinds(lines) != "active,event,event" {
		t.Fatalf("stream: %s", kinds(lines))
	}
	for _, l := range lines {
		if l["findings"] != nil {
			t.Fatalf("stream line with findings: %v", l)
		}
	}
	stdout, stderr, code := run(t, "--trace", "events", "webhook", "clock.tick", "--count", "2", "--ttl", "2s")
	if code != 0 {
		t.Fatalf("webhook: exit %d\n%s\n%s", code, stdout, stderr)
	}
	lines = eventLines(t, stdout)
	if got := kinds(lines); !strings.HasPrefix(got, "verification,subscribed,") || strings.Count(got, "event") != 2 {
		t.Fatalf("webhook: %s", got)
	}
	for _, l := range lines {
		if l["findings"] != nil {
			t.Fatalf("webhook line with findings: %v", l)
		}
		if d, ok := l["detail"].(map[string]any); ok && d["signature"] != nil && d["signature"].(map[string]any)["ok"] != true {
			t.Fatalf("unverified delivery: %v", l)
		}
	}
	if !strings.Contains(stderr, `"method":"events/unsubscribe"`) {
		t.Fatal("no events/unsubscribe on the way out")
	}
}

// TestEventsPollTruncated polls the demo's alert.raised from an old cursor with a floor
// past it: the batch says truncated and carries the events.truncated finding with its
// section of the extension.
func TestEventsPollTruncated(t *testing.T) {
	url, _ := sessiontest.StartDemoHTTP(t)
	for {
		lines := eventLines(t, runOK(t, "--url", url, "events", "poll", "alert.raised"))
		c, _ := lines[len(lines)-1]["cursor"].(string)
		if n, _ := strconv.Atoi(strings.TrimPrefix(c, "alert-")); n >= 2 {
			break
		}
	}
	lines := eventLines(t, runOK(t, "--url", url, "events", "poll", "alert.raised", "--cursor", "alert-0", "--max-age", "1ms"))
	batch := lines[len(lines)-1]
	if batch["kind"] != "batch" || batch["truncated"] != true {
		t.Fatalf("batch: %v", batch)
	}
	fs, _ := batch["findings"].([]any)
	if len(fs) != 1 || fs[0].(map[string]any)["code"] != protocol.FindEventsTruncated ||
		!strings.Contains(fs[0].(map[string]any)["spec"].(string), "ext-events") {
		t.Fatalf("findings: %v", fs)
	}
}

// TestEventsWebhookRecorded: a webhook subscription's deliveries are in the recording, as
// HTTP exchanges of the webhook lane, and HAR names them as what they are; the secret the
// server was given is masked there.
func TestEventsWebhookRecorded(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "hook.jsonl")
	runOK(t, "--record", rec, "events", "webhook", "clock.tick", "--count", "1")
	raw, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"purpose":"webhook"`) || strings.Contains(string(raw), "whsec_") {
		t.Fatalf("recording: webhook exchange present %v, secret present %v",
			strings.Contains(string(raw), `"purpose":"webhook"`), strings.Contains(string(raw), "whsec_"))
	}
	har := runOK(t, "export", "--format", "har", rec)
	if !strings.Contains(har, "events webhook: verification") || !strings.Contains(har, "events webhook: delivery") {
		t.Fatal("HAR does not name the webhook deliveries")
	}
}

// TestEventsStreamResumes: a stream silent longer than --silence is taken for dead and
// opened again from the last cursor; no tick is lost or repeated across the reconnections.
func TestEventsStreamResumes(t *testing.T) {
	lines := eventLines(t, runOK(t, "events", "stream", "clock.tick", "--silence", "700ms", "--count", "4"))
	var ns []int
	reconnects := 0
	for _, l := range lines {
		switch l["kind"] {
		case "reconnect":
			if c, _ := l["cursor"].(string); !strings.HasPrefix(c, "tick-") {
				t.Fatalf("reconnected without a cursor: %v", l)
			}
			reconnects++
		case "event":
			ns = append(ns, int(l["event"].(map[string]any)["data"].(map[string]any)["n"].(float64)))
		}
	}
	if reconnects == 0 {
		t.Fatalf("no reconnection: %s", kinds(lines))
	}
	for i := 1; i < len(ns); i++ {
		if ns[i] != ns[i-1]+1 {
			t.Fatalf("ticks %v: lost or repeated across reconnections", ns)
		}
	}
}
