package check_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/check"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// appSessions is sessions with the MCP Apps extension declared or not.
func appSessions(sp session.ServerSpec, declare bool) check.NewSession {
	return func(proto string) (*session.Session, func(), error) {
		tr, err := sp.NewTransport()
		if err != nil {
			return nil, nil, err
		}
		caps := session.DefaultCaps()
		caps.Apps = declare
		s := session.New(session.Config{Transport: tr, Protocol: proto, Caps: caps, RequestTimeout: 20 * time.Second})
		return s, func() { _ = s.Close() }, nil
	}
}

func runAppCheck(t *testing.T, args ...string) *check.Report {
	t.Helper()
	sp := session.ServerSpec{Command: append([]string{sessiontest.BuildAppServer(t)}, args...)}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rep, err := check.Check(ctx, appSessions(sp, true), check.Options{Read: 10, Slow: patient,
		AppsContrast: appSessions(sp, false)})
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	return rep
}

// TestCheckApps: on the app server with one broken case per rule, check reports each, with
// the MCP Apps specification's section; on its clean twin, none.
func TestCheckApps(t *testing.T) {
	rep := runAppCheck(t)
	run := rep.Runs[0]
	want := map[string]string{
		protocol.FindAppResource:   "ui://appserver/missing",
		protocol.FindAppScheme:     `"http"`,
		protocol.FindAppFlatKey:    `"flat"`,
		protocol.FindAppVisibility: `"agent"`,
		protocol.FindAppMIMEType:   "ui://appserver/mime",
		protocol.FindAppContent:    "ui://appserver/empty",
		protocol.FindAppHTML:       "ui://appserver/quirks",
		protocol.FindAppCSP:        "https://cdn.undeclared.example (resourceDomains), wss://live.undeclared.example (connectDomains)",
		protocol.FindAppEval:       `ui://appserver/eval compiles code from text (new Function("x", "return 2*x")`,
	}
	for code, text := range want {
		i := slices.IndexFunc(run.Items, func(it check.Item) bool { return it.Code == code && strings.Contains(it.Message, text) })
		if i < 0 {
			t.Errorf("no %s finding naming %s; findings:\n%s", code, text, dump(run.Items))
			continue
		}
		if it := run.Items[i]; !strings.Contains(it.Spec.URL(), "ext-apps") || !strings.Contains(it.Spec.URL(), "#") || len(it.Frames) == 0 {
			t.Errorf("%s: spec %q, frames %v", code, it.Spec.URL(), it.Frames)
		}
	}
	if run.Apps == nil || !run.Apps.Declared || run.Apps.Apps != 6 || !slices.Equal(run.Apps.AppOnly, []string{"refresh"}) {
		t.Errorf("apps info: %+v", run.Apps)
	}
	// The app-only tool is counted apart: the model never sees it.
	if c := run.Cost; c == nil || c.AppOnly == 0 || c.Total != c.Tools+c.Prompts+c.Instructions {
		t.Errorf("cost: %+v", c)
	} else {
		sum, apart := 0, 0
		for _, it := range c.Items {
			switch {
			case it.AppOnly && it.Name == "refresh":
				apart += it.Tokens
			case it.AppOnly:
				t.Errorf("%s counted as app-only", it.Name)
			case it.Kind == "tool":
				sum += it.Tokens
			}
		}
		if apart != c.AppOnly || sum != c.Tools {
			t.Errorf("app-only %d (items %d), tools %d (items %d): the app-only tool refresh is not set apart", c.AppOnly, apart, c.Tools, sum)
		}
	}
	if run.AppsContrast == nil || !slices.Equal(run.AppsContrast.Tools, []string{"show"}) || len(run.AppsContrast.UITools) != 0 {
		t.Errorf("contrast without the extension: %+v", run.AppsContrast)
	}
	if !slices.ContainsFunc(run.Notes, func(n string) bool { return strings.Contains(n, "only with: refresh, missing") }) {
		t.Errorf("no note on the two tool lists: %q", run.Notes)
	}

	clean := runAppCheck(t, "-clean").Runs[0]
	for _, it := range clean.Items {
		if strings.HasPrefix(it.Code, "apps.") {
			t.Errorf("clean twin: %s: %s", it.Code, it.Message)
		}
	}
	if clean.Apps == nil || clean.Apps.Apps != 1 || len(clean.Apps.UITools) != 2 {
		t.Errorf("clean twin apps info: %+v", clean.Apps)
	}
}

func dump(items []check.Item) string {
	var b strings.Builder
	for _, it := range items {
		b.WriteString("  " + it.Code + ": " + it.Message + "\n")
	}
	return b.String()
}
