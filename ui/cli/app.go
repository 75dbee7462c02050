package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/apps"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/apphost"
	"github.com/mcpscope/mcpscope/session/browser"
	"github.com/mcpscope/mcpscope/session/secret"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
)

// AppCmd runs a tool's MCP App in the browser with mcpscope as the host.
type AppCmd struct {
	Tool     string   `arg:"" help:"A tool with an app (_meta.ui.resourceUri)."`
	Args     []string `arg:"" optional:"" help:"Arguments as key=value (typed by the tool's inputSchema) or key:=JSON."`
	JSONArgs string   `name:"args" help:"All arguments as one JSON object (key=value pairs override its members)." placeholder:"JSON"`
	Theme    string   `help:"The theme the host tells the app (hostContext.theme)." enum:"light,dark" default:"light"`
	CSP      string   `name:"csp" help:"The view's Content-Security-Policy: strict (the spec's, from the resource's declaration) or reference (the ext-apps reference host's: eval, blob: and data: scripts, workers)." enum:"strict,reference" default:"strict"`
}

// appTeardownWait bounds how long closing waits for the view's answer to
// ui/resource-teardown.
const appTeardownWait = 3 * time.Second

// Run implements the command.
func (c AppCmd) Run(r *runner) error {
	if _, err := buildArgs(c.JSONArgs, c.Args, nil); err != nil {
		return usageError{err}
	}
	s, done, err := r.connect()
	if err != nil {
		return err
	}
	defer done()
	var tools []json.RawMessage
	if err := r.again(s, "tools/list", false, func() (err error) {
		tools, err = s.List(r.ctx, session.ListTools)
		return err
	}); err != nil {
		return err
	}
	var tool json.RawMessage
	for _, t := range tools {
		var def struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(t, &def) == nil && def.Name == c.Tool {
			tool = t
		}
	}
	if tool == nil {
		return usageError{fmt.Errorf("tool %q is not in tools/list", c.Tool)}
	}
	var def struct {
		Schema json.RawMessage `json:"inputSchema"`
	}
	_ = json.Unmarshal(tool, &def)
	args, err := buildArgs(c.JSONArgs, c.Args, def.Schema)
	if err != nil {
		return usageError{err}
	}

	sub := s.Subscribe(0)
	defer sub.Close()
	// What the app says reaches the terminal masked (a server's or an app's text may
	// carry a secret), then escaped.
	mask := r.flags.screenMasker(r.command)
	out := &lockedWriter{w: r.stdout, mask: mask}
	ask := newAsker(r.stdin, r.stderr, mask)
	cfg := apphost.Config{Session: s, Tool: tool, Tools: tools, Arguments: argsMap(args), Theme: c.Theme, CSP: c.CSP,
		Ask:     ask.ask,
		Notice:  appNotice(r.stderr, mask),
		OpenURL: browser.Open,
	}
	h, err := apphost.Start(r.ctx, cfg)
	if err != nil {
		if errors.Is(err, apphost.ErrAppOnly) || errors.Is(err, apphost.ErrNoApp) {
			return usageError{err}
		}
		return err
	}
	out.println(h.URL())
	fmt.Fprintf(r.stderr, "mcpscope: hosting %s (%s) at the URL above; the sandbox is %s, under CSP: %s\n",
		jsonview.EscapeText(c.Tool), jsonview.EscapeText(appResource(tool)), h.SandboxOrigin(), jsonview.EscapeText(h.Policy()))
	for _, rf := range h.Refused() {
		fmt.Fprintf(r.stderr, "mcpscope: left out of the CSP (%s): %s\n", protocol.FindAppCSPRefused, jsonview.EscapeText(rf.String()))
	}
	fmt.Fprintln(r.stderr, "mcpscope: WebRTC is "+apphost.WebRTCNote)
	if !r.flags.NoBrowser { // --no-browser: the URL, first on stdout, is all
		if err := browser.Open(h.URL()); err != nil {
			fmt.Fprintf(r.stderr, "mcpscope: could not open a browser (%v); open the URL above yourself\n", err)
		}
	}
	fmt.Fprintln(r.stderr, "mcpscope: every message between the app and mcpscope follows; Ctrl-C ends")

	ctx, stop := context.WithCancel(r.ctx)
	defer stop()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		printAppEvents(ctx, sub, out)
	}()
	select {
	case <-r.ctx.Done():
	case <-h.Closed():
		fmt.Fprintf(r.stderr, "mcpscope: the app ended: %s\n", h.Why())
	case <-s.Done():
		fmt.Fprintln(r.stderr, "mcpscope: the session with the server ended")
	}
	h.Close(appTeardownWait)
	drainCtx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	stop()
	wg.Wait()
	printAppEventsNow(drainCtx, sub, out)
	return nil
}

// appResource is the tool's ui:// URI.
func appResource(tool json.RawMessage) string { return apphost.ToolLink(tool).ResourceURI }

// printAppEvents prints each app↔host message, and each server call made for the app, as
// one line until ctx ends.
func printAppEvents(ctx context.Context, sub *session.Subscription, out *lockedWriter) {
	for {
		evs, ok := sub.Next(ctx, 256)
		if !ok {
			return
		}
		printAppLines(evs, out)
	}
}

// printAppEventsNow prints what is already queued.
func printAppEventsNow(ctx context.Context, sub *session.Subscription, out *lockedWriter) {
	for {
		evs, ok := sub.Next(ctx, 256)
		if !ok || len(evs) == 0 {
			return
		}
		printAppLines(evs, out)
	}
}

func printAppLines(evs []*session.Event, out *lockedWriter) {
	for _, e := range evs {
		if e.Kind == session.EvGap || (e.Kind == session.EvFrame && (e.Lane == session.LaneApp || e.Corr.AppSeq != 0)) {
			prefix := "server "
			if e.Lane == session.LaneApp {
				prefix = ""
			}
			out.println(fmt.Sprintf("%s #%d %s%s", e.Time.Format("15:04:05.000"), e.Seq, prefix, terminalText(out.mask, e.Summary())))
		}
		if e.Kind == session.EvTransport && e.Note == session.NoteAppCSPViolation { // what the policy blocked
			out.println(fmt.Sprintf("%s #%d csp (%s) %s", e.Time.Format("15:04:05.000"), e.Seq, protocol.FindAppCSPViolation, terminalText(out.mask, e.Text)))
		}
	}
}

// appNotice shows a line of the app's (ui/update-model-context, an opened link) on w.
func appNotice(w io.Writer, mask *secret.Masker) func(string) {
	return func(text string) { fmt.Fprintln(w, "mcpscope:", terminalText(mask, text)) }
}

// terminalText is text from a server or an app as a terminal line shows it: its secrets
// masked, then its control characters escaped.
func terminalText(mask *secret.Masker, text string) string {
	return jsonview.EscapeText(mask.String(text))
}

type lockedWriter struct {
	mu   sync.Mutex
	w    io.Writer
	mask *secret.Masker
}

func (l *lockedWriter) println(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintln(l.w, s)
}

// asker puts the app's questions to the user on the terminal, one at a time: a line of
// stdin starting with y accepts; anything else, or no stdin, refuses.
type asker struct {
	mu     sync.Mutex
	stderr io.Writer
	mask   *secret.Masker
	lines  chan string
}

func newAsker(stdin io.Reader, stderr io.Writer, mask *secret.Masker) *asker {
	a := &asker{stderr: stderr, mask: mask, lines: make(chan string)}
	if stdin == nil {
		close(a.lines)
		return a
	}
	go func() { // owned by the process: it ends with stdin
		defer close(a.lines)
		sc := bufio.NewScanner(stdin)
		for sc.Scan() {
			a.lines <- sc.Text()
		}
	}()
	return a
}

func (a *asker) ask(ctx context.Context, q apphost.Question) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	text := terminalText(a.mask, q.Text)
	switch q.Method {
	case apps.MethodOpenLink:
		fmt.Fprintf(a.stderr, "mcpscope: the app asks to open %s\n  open it in the browser? [y/N] ", text)
	default:
		fmt.Fprintf(a.stderr, "mcpscope: the app sends a message to the conversation (ui/message):\n  %s\n  accept it? [y/N] ", text)
	}
	select {
	case line, ok := <-a.lines:
		yes := ok && strings.HasPrefix(strings.ToLower(strings.TrimSpace(line)), "y")
		if !ok {
			fmt.Fprintln(a.stderr, "(no input: refused)")
		}
		return yes
	case <-ctx.Done():
		fmt.Fprintln(a.stderr, "(no longer asked: the app cancelled it or went away)")
		return false
	}
}
