package check_test

import (
	"github.com/mcpscope/mcpscope/protocol/tokens"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/check"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestCheckHiddenContent runs check on the fixture server once per kind of hidden content:
// exactly one content finding, of the kind's code, at the place it hides; none on the clean
// twin.
func TestCheckHiddenContent(t *testing.T) {
	bin := sessiontest.BuildHiddenServer(t)
	for _, tc := range []struct{ kind, code, pointer string }{
		{"clean", "", ""},
		{"escape", protocol.FindContentEscape, "/tools/0/description"},
		{"control", protocol.FindContentControl, "/tools/0/inputSchema/properties/path/description"},
		{"invisible", protocol.FindContentInvisible, "/tools/0/description"},
		{"bidi", protocol.FindContentBidi, "/tools/0/description"},
		{"tags", protocol.FindContentTags, "/tools/0/description"},
		{"variation", protocol.FindContentVariation, "/tools/0/description"},
		{"confusable", protocol.FindContentConfusable, "/tools/0/name"},
		{"instruction", protocol.FindContentInstruction, "/tools/0/description"},
		{"markup", protocol.FindContentMarkup, "/tools/0/description"},
		{"instructions", protocol.FindContentInvisible, "/instructions"},
		{"serverinfo", protocol.FindContentEscape, "/serverInfo/name"},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			t.Parallel()
			rep := runCheck(t, session.ServerSpec{Command: []string{bin, tc.kind}},
				check.Options{CallWait: 300 * time.Millisecond, Slow: patient})
			var got []check.Item
			for _, it := range rep.Runs[0].Items {
				if strings.HasPrefix(it.Code, "content.") {
					got = append(got, it)
				}
			}
			if tc.code == "" {
				if len(got) > 0 {
					t.Fatalf("the clean twin has content findings: %+v", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("want one %s, got %+v", tc.code, got)
			}
			it := got[0]
			if it.Code != tc.code || it.Pointer != tc.pointer || len(it.Frames) == 0 || it.Spec.Page == "" {
				t.Errorf("got %s at %s (frames %v, spec %v): %s; want %s at %s", it.Code, it.Pointer, it.Frames, it.Spec,
					it.Message, tc.code, tc.pointer)
			}
		})
	}
}

// TestCheckContextCost: check counts each tool's tokens as package tokens does, totals
// them, and warns only past the threshold.
func TestCheckContextCost(t *testing.T) {
	bin := sessiontest.BuildHiddenServer(t)
	sp := session.ServerSpec{Command: []string{bin, "-tools", "read_file,write_file", "clean"}}
	for _, limit := range []int{10, check.DefaultTokenLimit} {
		rep := runCheck(t, sp, check.Options{CallWait: 300 * time.Millisecond, Slow: patient, TokenLimit: limit})
		run := rep.Runs[0]
		c := run.Cost
		if c == nil || c.Encoding != tokens.Encoding || len(c.Items) != 2 {
			t.Fatalf("cost %+v", c)
		}
		sum := 0
		for i, raw := range run.Definitions.Tools {
			n, err := tokens.Tool(raw)
			if err != nil || n == 0 {
				t.Fatalf("tool %d: %d tokens, %v", i, n, err)
			}
			sum += n
		}
		if c.Tools != sum || c.Total != sum || c.Items[0].Tokens < c.Items[1].Tokens {
			t.Errorf("cost %+v, want tools %d, most expensive first", c, sum)
		}
		warned := slices.ContainsFunc(run.Items, func(it check.Item) bool { return it.Code == protocol.FindContextCost })
		if warned != (limit < sum) {
			t.Errorf("limit %d, total %d: warned %v", limit, sum, warned)
		}
	}
}
