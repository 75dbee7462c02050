package cli_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/cli"
)

// TestAppCommand runs `mcpscope app view_dice` on the demo as a user would, with the page in
// headless chromium: the URL first on stdout, every app↔host message printed live, the
// app's button forwarded to the server, and the conversation in --trace (in order), in
// the recording and in both exports; Ctrl-C tears the app down and exits 0. The model side
// may not run the app-only view_dice_reroll.
func TestAppCommand(t *testing.T) {
	bctx := sessiontest.Chromium(t)
	_, stderr, code := run(t, "app", "view_dice_reroll")
	if code != cli.ExitUsage || !strings.Contains(stderr, "app-only") {
		t.Errorf("app view_dice_reroll: exit %d, stderr %q; want a usage error naming the app-only tool", code, stderr)
	}

	rec := filepath.Join(t.TempDir(), "app.jsonl")
	p := start(t, nil, sessiontest.BuildMCPScope(t), "--record", rec, "--trace", "--no-browser", "app", "view_dice", "sides=12", "count=2")
	var url string
	p.wait(func() bool {
		if len(p.lines) > 0 {
			url = string(p.lines[0])
		}
		return url != ""
	})
	if !strings.HasPrefix(url, "http://host-") || !strings.Contains(url, ".localhost:") || !strings.Contains(url, "/?t=") {
		t.Fatalf("the first stdout line is %q, want the host page's URL", url)
	}
	if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	stdoutHas := func(s string) func() bool {
		return func() bool { return strings.Contains(p.out.String(), s) }
	}
	p.wait(stdoutHas("host→app notification ui/notifications/tool-result"))
	clickView(t, bctx, "#again")
	p.wait(stdoutHas("server out request tools/call id="))
	p.wait(stdoutHas("host→app result tools/call"))
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	p.wait(func() bool { return p.ended })
	if p.code != 0 {
		t.Errorf("exit %d after Ctrl-C\nstderr:\n%s", p.code, p.errOut.String())
	}
	if !strings.Contains(p.out.String(), "host→app request ui/resource-teardown") {
		t.Errorf("no teardown on stdout:\n%s", p.out.String())
	}

	// --trace: the app lane in order.
	var lane []string
	sc := bufio.NewScanner(strings.NewReader(p.errOut.String()))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var j session.EventJSON
		if json.Unmarshal(sc.Bytes(), &j) != nil || j.Lane != session.LaneApp {
			continue
		}
		lane = append(lane, j.Dir+" "+j.FrameKind+" "+j.Method)
	}
	want := []string{
		"in notification ui/notifications/sandbox-proxy-ready",
		"out notification ui/notifications/sandbox-resource-ready",
		"in request ui/initialize", "out result ui/initialize",
		"in notification ui/notifications/initialized",
		"out notification ui/notifications/tool-input", "out notification ui/notifications/tool-result",
		"in request tools/call", "out result tools/call",
		"out request ui/resource-teardown", "in result ui/resource-teardown",
	}
	if !subsequence(lane, want) {
		t.Errorf("--trace's app lane:\n%s\nwant in order:\n%s", strings.Join(lane, "\n"), strings.Join(want, "\n"))
	}

	// The recording holds the lane and the server call made for the app.
	r, err := recordings.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	var appFrames, forApp int
	for i := range r.Len() {
		en, err := r.Entry(i)
		if err != nil {
			t.Fatal(err)
		}
		if en.Event.Lane == session.LaneApp {
			appFrames++
		}
		if en.Event.Corr.AppSeq != 0 {
			forApp++
		}
	}
	r.Close()
	if appFrames < len(want) || forApp != 2 {
		t.Errorf("the recording holds %d app-lane frames (want ≥ %d) and %d frames for the app (want 2)", appFrames, len(want), forApp)
	}

	har := string(exportOut(t, "har", rec))
	for _, s := range []string{`"url": "mcp+app://host/ui/initialize?id=`, `"url": "mcp+app://app/ui/notifications/tool-result"`} {
		if !strings.Contains(har, s) && !strings.Contains(strings.ReplaceAll(har, `": "`, `":"`), strings.ReplaceAll(s, `": "`, `":"`)) {
			t.Errorf("the HAR lacks %s", s)
		}
	}
	otlp := string(exportOut(t, "otlp", rec))
	for _, s := range []string{"mcpscope.lane", "mcpscope.app_request_seq", "ui/initialize"} {
		if !strings.Contains(otlp, s) {
			t.Errorf("the OTLP export lacks %s", s)
		}
	}
}

// subsequence reports whether want appears in have in order.
func subsequence(have, want []string) bool {
	i := 0
	for _, h := range have {
		if i < len(want) && h == want[i] {
			i++
		}
	}
	return i == len(want)
}

// clickView clicks selector in the app's view (the srcdoc frame in the sandbox).
func clickView(t *testing.T, ctx context.Context, selector string) {
	t.Helper()
	expr := `(() => { const b = document.querySelector(` + jsQuote(selector) + `); if (!b || b.disabled) return false; b.click(); return true; })()`
	deadline := time.Now().Add(20 * time.Second)
	for {
		v, err := sessiontest.EvalInFrame(ctx, "about:srcdoc", expr)
		if err == nil && v == "true" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("could not click %s in the view: %v %s", selector, err, v)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func jsQuote(s string) string { b, _ := json.Marshal(s); return string(b) }
