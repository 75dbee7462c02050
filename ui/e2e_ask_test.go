package ui_test

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// composeCall opens the request composer and sends tools/call with params.
func (tm *term) composeCall(params string) {
	tm.t.Helper()
	tm.keys(":")
	tm.waitFor("the request composer", func(s string) bool { return strings.Contains(s, "New request") })
	tm.typeText("tools/call")
	tm.keys("Tab")
	tm.typeText(params)
	tm.keys("C-s")
	tm.waitFor("the composer to close", func(s string) bool { return !strings.Contains(s, "New request") })
}

// everythingTerm runs the reference server over stdio in a 120×40 terminal.
func everythingTerm(t *testing.T) *term {
	t.Helper()
	node := sessiontest.NodePath(t)
	index := sessiontest.Everything(t)
	tm := startTerm(t, 120, 40, "--no-record", "--", node, index)
	tm.waitFor(`status "ready" and a tools/list response`, func(s string) bool {
		return ready(s) && listsAnswered(s)
	})
	return tm
}

// TestTmuxAskElicitation: the reference server asks for a form (elicitation/create); the
// dialog shows over the timeline, the user fills in a field and accepts, and the tool
// answers.
func TestTmuxAskElicitation(t *testing.T) {
	t.Parallel()
	tm := everythingTerm(t)
	tm.composeCall(`{"name":"trigger-elicitation-request","arguments":{}}`)
	tm.waitFor("the elicitation dialog with its message and fields", func(s string) bool {
		return strings.Contains(s, "The server asks you to fill in a form") && strings.Contains(s, "Please provide inputs") &&
			strings.Contains(s, "waiting") && strings.Contains(s, "ctrl+d decline")
	})
	tm.keys("Enter")
	tm.typeText("Ada Lovelace")
	tm.keys("Enter")
	tm.keys("C-s")
	tm.waitFor("the dialog gone, our answer sent and the tool's result", func(s string) bool {
		return !strings.Contains(s, "fill in a form") && bodyHas(s, "→", "res", "elicitation/create") && bodyHas(s, "←", "res", "tools/call")
	})
	tm.filter("Ada Lovelace")
	tm.waitFor("the answer and the tool's result holding the name", func(s string) bool {
		return bodyHas(s, "→", "elicitation/create") && bodyHas(s, "←", "tools/call")
	})
	tm.quit()
}

// TestTmuxAskSampling: the reference server asks for a model reply (sampling/createMessage);
// the user writes it, and the tool's result carries it.
func TestTmuxAskSampling(t *testing.T) {
	t.Parallel()
	tm := everythingTerm(t)
	tm.composeCall(`{"name":"trigger-sampling-request","arguments":{"prompt":"Say hello","maxTokens":50}}`)
	tm.waitFor("the sampling dialog with the prompt", func(s string) bool {
		return strings.Contains(s, "The server asks your model for a reply") && strings.Contains(s, "Say hello") &&
			strings.Contains(s, "System prompt: You are a helpful test server.") && strings.Contains(s, "max tokens 50")
	})
	tm.typeText("Hello from the terminal")
	tm.keys("C-s")
	tm.waitFor("the dialog gone and the tool's result", func(s string) bool {
		return !strings.Contains(s, "asks your model") && bodyHas(s, "→", "res", "sampling/createMessage") && bodyHas(s, "←", "res", "tools/call")
	})
	tm.filter("Hello from the terminal")
	tm.waitFor("the reply and the tool's result holding it", func(s string) bool {
		return bodyHas(s, "→", "sampling/createMessage") && bodyHas(s, "←", "tools/call")
	})
	tm.quit()
}

// TestTmuxLongRunning runs trigger-long-running-operation twice: the first one's progress
// fills its row until it completes; the second one is cancelled with c.
func TestTmuxLongRunning(t *testing.T) {
	t.Parallel()
	tm := everythingTerm(t)
	tm.composeCall(`{"name":"trigger-long-running-operation","arguments":{"duration":2,"steps":2},"_meta":{"progressToken":"lro-1"}}`)
	tm.waitFor("progress on the call's row", func(s string) bool {
		return bodyHas(s, "→", "req", "tools/call", "] 1/2")
	})
	tm.waitFor("the call complete with its progress full", func(s string) bool {
		return bodyHas(s, "→", "req", "tools/call", "[████████] 2/2") && bodyHas(s, "←", "res", "tools/call")
	})

	tm.composeCall(`{"name":"trigger-long-running-operation","arguments":{"duration":60,"steps":60},"_meta":{"progressToken":"lro-2"}}`)
	tm.waitFor("the second call in flight with progress", func(s string) bool {
		return bodyHas(s, "→", "req", "tools/call", "/60", "⏱")
	})
	tm.filter("kind:request method:tools/call")
	tm.keys("G")
	tm.keys("c")
	tm.waitFor("the second call cancelled", func(s string) bool {
		return bodyHas(s, "→", "req", "tools/call", "/60", "✗ cancel")
	})
	tm.clearFilter()
	tm.waitFor("the notifications/cancelled the server was sent", func(s string) bool {
		return bodyHas(s, "→", "note", "notifications/cancelled")
	})
	tm.quit()
}
