package check_test

import (
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
