package sessiontest

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Chromium starts a headless chromium (Debian's package) with a fresh profile for the
// duration of the test and returns a chromedp context for its first tab. The flags are
// those that work in a container: no sandbox, no GPU, no QUIC, nothing fetched in the
// background. Without chromium the test fails, unless it runs with -short, where it is
// skipped.
func Chromium(t testing.TB) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if testing.Short() {
			t.Skip("chromium is not installed (-short)")
		}
		t.Fatalf("sessiontest: chromium is not on $PATH (%v): install Debian's chromium (apt-get install chromium) to run the browser tests", err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
	}
	// A browser that dies while starting (Debian's wrapper script, crashpad, a loaded
	// machine) is started once more, in a fresh profile, before the test fails: what the
	// tests judge is the page, not the browser's start.
	var ctx context.Context
	for attempt := 1; ; attempt++ {
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(opts, chromedp.UserDataDir(t.TempDir()))...)
		c, cancel := chromedp.NewContext(actx)
		err := chromedp.Do(c, chromedp.Navigate("about:blank"))
		if err == nil {
			ctx = c
			t.Cleanup(func() {
				cancel()
				cancelAlloc()
			})
			break
		}
		cancel()
		cancelAlloc()
		if attempt == 2 {
			t.Fatalf("sessiontest: start chromium (twice): %v", err)
		}
		t.Logf("sessiontest: chromium did not start (%v); starting it again", err)
	}
	return ctx
}

// EvalInFrame evaluates expr in every frame of the page whose URL has the prefix (an
// isolated world of the frame: it shares the DOM, not the page's globals) and returns the
// value of the first that gives a value other than false or undefined, as JSON. It reaches
// frames that chromium keeps in the page's process and frames of another site, which run in
// a process of their own (site isolation): each is a target of its own, attached to for the
// call and left as it was.
func EvalInFrame(ctx context.Context, urlPrefix, expr string) (string, error) {
	v, found, err := evalInTree(ctx, urlPrefix, expr)
	if err != nil || v != "false" {
		return v, err
	}
	infos, err := chromedp.Targets(ctx)
	if err != nil {
		return "", err
	}
	for _, info := range infos {
		if info.Type != "iframe" {
			continue
		}
		fctx, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(info.TargetID), chromedp.WithDetachOnCancel())
		v, ok, err := evalInTree(fctx, urlPrefix, expr)
		cancel()
		found = found || ok
		if err == nil && v != "false" {
			return v, nil
		}
	}
	if !found {
		return "", fmt.Errorf("no frame's URL starts with %q", urlPrefix)
	}
	return "false", nil
}

// evalInTree is EvalInFrame over the frames of ctx's target; found says whether a frame's
// URL has the prefix.
func evalInTree(ctx context.Context, urlPrefix, expr string) (v string, found bool, err error) {
	tree, err := chromedp.Call(ctx, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		return "", false, err
	}
	var frames []*cdp.Frame
	var walk func(ft *page.FrameTree)
	walk = func(ft *page.FrameTree) {
		if ft == nil {
			return
		}
		if strings.HasPrefix(ft.Frame.URL, urlPrefix) {
			frames = append(frames, ft.Frame)
		}
		for _, c := range ft.ChildFrames {
			walk(c)
		}
	}
	walk(tree.FrameTree)
	yes := true
	for _, f := range frames {
		world, err := chromedp.Call(ctx, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: f.ID, WorldName: "mcpscope-test"})
		if err != nil {
			return "", true, err
		}
		res, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, ContextID: world.ExecutionContextID,
			ReturnByValue: &yes, UserGesture: &yes})
		if err != nil {
			return "", true, err
		}
		if res.ExceptionDetails != nil {
			return "", true, fmt.Errorf("%s: %s", expr, res.ExceptionDetails.Text)
		}
		if res.Result == nil || res.Result.Type == "undefined" {
			continue
		}
		if v := strings.TrimSpace(string(res.Result.Value)); v != "false" && v != "null" && v != "" {
			return v, true, nil
		}
	}
	return "false", len(frames) > 0, nil
}
