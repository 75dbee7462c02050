package cli_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/mcpscope/mcpscope/session/apphost"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestAppEndsWhenTheBrowserDies: `mcpscope app view_dice --no-browser` with the page in
// chromium, then chromium killed: the command ends by itself, saying why, and exits 0; the
// recording with the end's row exports.
func TestAppEndsWhenTheBrowserDies(t *testing.T) {
	bctx := sessiontest.Chromium(t)
	rec := filepath.Join(t.TempDir(), "app.jsonl")
	p := start(t, nil, sessiontest.BuildMCPScope(t), "--record", rec, "--no-browser", "app", "view_dice")
	var url string
	p.wait(func() bool {
		if len(p.lines) > 0 {
			url = string(p.lines[0])
		}
		return url != ""
	})
	if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	p.wait(func() bool {
		return strings.Contains(p.out.String(), "host→app notification ui/notifications/tool-result")
	})
	if err := chromedp.FromContext(bctx).Browser.Process().Kill(); err != nil {
		t.Fatal(err)
	}
	p.wait(func() bool { return p.ended })
	if p.code != 0 || !strings.Contains(p.errOut.String(), "the app ended: "+apphost.WhyBrowserGone) {
		t.Errorf("exit %d; stderr:\n%s\nwant exit 0 and why the app ended", p.code, p.errOut.String())
	}
	for _, format := range []string{"har", "otlp"} {
		if out := exportOut(t, format, rec); len(out) == 0 {
			t.Errorf("the %s export of the recording is empty", format)
		}
	}
}
