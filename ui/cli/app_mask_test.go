package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol/apps"
	"github.com/mcpscope/mcpscope/session/apphost"
	"github.com/mcpscope/mcpscope/session/secret"
)

// TestAppLinesMasked: what mcpscope app prints of an app (its ui/message question, its
// ui/update-model-context notice) has its secrets masked, not only its control characters
// escaped.
func TestAppLinesMasked(t *testing.T) {
	const given = "given-e-value-4417"
	const shaped = "wJalrXUtnFEMI/K7MDENGzz"
	mask := secret.New([]string{given}, false)
	var stderr bytes.Buffer
	a := newAsker(strings.NewReader("n\n"), &stderr, mask)
	a.ask(context.Background(), apphost.Question{Method: apps.MethodMessage,
		Text: `deploy with ` + given + ` and {"AWS_SECRET_ACCESS_KEY": "` + shaped + `"}` + "\x1b[31m"})
	var notice bytes.Buffer
	appNotice(&notice, mask)(`the app's model context: key ` + given + ` API_KEY=sk-live-0123456789abcdefXYZ` + "\x1b]0;x\x07")
	for name, text := range map[string]string{"the question": stderr.String(), "the notice": notice.String()} {
		for _, leak := range []string{given, shaped, "sk-live-0123456789", "\x1b"} {
			if strings.Contains(text, leak) {
				t.Errorf("%s shows %q:\n%s", name, leak, text)
			}
		}
	}
	if !strings.Contains(stderr.String(), "deploy with "+secret.Mask) || !strings.Contains(notice.String(), "API_KEY="+secret.Mask) {
		t.Errorf("question:\n%s\nnotice:\n%s", stderr.String(), notice.String())
	}
}
