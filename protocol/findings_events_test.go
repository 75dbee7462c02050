package protocol

import (
	"strings"
	"testing"
)

// TestEventsSpecRef: every Events finding links to the extension's text at the commit it
// was checked against (not main, whose anchors can move), under the text's own version
// (its Beta stage, not the proposal's date), at a section the text has.
func TestEventsSpecRef(t *testing.T) {
	// The headings of specification/beta/events/events.mdx the findings rest on, as the
	// site and GitHub make their anchors.
	want := map[string]string{
		FindEventsType:      "listing-available-events",
		FindEventsShape:     "event-occurrences",
		FindEventsPayload:   "event-occurrences",
		FindEventsTruncated: "cursor-lifecycle",
		FindEventsCursor:    "cursor-lifecycle",
		FindEventsDuplicate: "ordering-and-delivery-guarantees",
		FindEventsStream:    "push-based-delivery",
		FindEventsSignature: "webhook-security",
		FindEventsStale:     "webhook-security",
		FindEventsSubscribe: "subscription-ttl",
	}
	for code := range eventsFindings() {
		ref, ok := EventsSpecRef(code)
		if !ok {
			t.Fatalf("%s has no section", code)
		}
		u := ref.URL()
		base := "https://github.com/modelcontextprotocol/ext-events/blob/c77b84395eff0ae32f53b0516c2214fe276ed050/specification/beta/events/events.mdx#"
		if !strings.HasPrefix(u, base) || strings.TrimPrefix(u, base) != want[code] {
			t.Errorf("%s links to %s, want %s%s", code, u, base, want[code])
		}
		if !strings.HasPrefix(ref.String(), "beta Events § ") {
			t.Errorf("%s is cited as %q", code, ref.String())
		}
	}
	if len(want) != len(eventsFindings()) {
		t.Errorf("%d codes checked, %d defined", len(want), len(eventsFindings()))
	}
}
