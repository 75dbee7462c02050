package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/alecthomas/kong"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/replay"
)

// ReplayCmd re-sends a recording to a live server and compares.
type ReplayCmd struct {
	File             string        `arg:"" help:"The recording (made with --record)." type:"existingfile"`
	Ignore           []string      `sep:"none" help:"Leave this place out of the comparison: a JSON pointer into the response, segments may be globs, ** any depth (repeatable; e.g. /result/content/*/text)." placeholder:"POINTER"`
	NoDefaultIgnores bool          `help:"Also compare what is ignored by default: /id, /result/_meta/**, /result/requestState, **/sessionId, /result/serverInfo/version."`
	JSON             bool          `name:"json" help:"Print the report as JSON."`
	Unanswered       time.Duration `help:"How long to wait for an answer to a request that was not answered in the recording." default:"2s"`
	TUI              bool          `name:"tui" help:"Show the report in the interactive view: the replayed requests, and each one's recorded and live responses side by side with the differences marked. The exit code is the same once you quit."`
	Debug            string        `help:"With --tui, write a debug log to this file." type:"path" placeholder:"FILE"`
	AnswerMatch      string        `name:"answer-match" help:"How the server's requests (elicitation, sampling, roots) find their recorded answers: shape (the same params, else the same shape with the ignored places, such as an elicitation's new id, left out), params (the same params only) or order (the Nth request of a method gets its Nth recorded answer)." enum:"shape,params,order" default:"shape"`
}

// replayDiffers is the outcome of a replay whose responses differ: exit code 1, the report
// already printed.
type replayDiffers struct{}

func (replayDiffers) Error() string { return "the live responses differ from the recorded ones" }
func (replayDiffers) ExitCode() int { return ExitRPCError }
func (replayDiffers) Unwrap() error { return errReported }

// Run implements the command.
func (c ReplayCmd) Run(r *runner, kctx *kong.Context) error {
	patterns := append([]string(nil), c.Ignore...)
	if !c.NoDefaultIgnores {
		patterns = append(patterns, recordings.DefaultIgnores...)
	}
	if c.TUI && c.JSON {
		return usageError{fmt.Errorf("--tui and --json: choose one")}
	}
	ig, err := recordings.NewIgnore(patterns...)
	if err != nil {
		return usageError{err}
	}
	t, err := recordings.Load(c.File)
	if err != nil {
		return usageError{err}
	}
	defer t.Close()
	given := givenFlags(kctx)
	var answers *recordings.Responder
	s, done, err := r.newSession(func(cfg *session.Config) {
		answers = recordings.NewResponder(t, cfg.Responder)
		answers.Match, answers.Ignore = c.AnswerMatch, ig
		cfg.Responder = answers
		recordedHandshake(cfg, t, given)
	})
	if err != nil {
		return err
	}
	defer done()
	o := recordings.ReplayOptions{Ignore: ig, Unanswered: c.Unanswered, Substitute: answers.Substitute}
	if c.TUI {
		sp, _ := r.flags.spec(r.command)
		rep, err := replay.Run(r.ctx, replay.Options{Transcript: t, Session: s, Replay: o, Target: sp.Describe(), Secrets: specSecrets(sp)}, c.Debug)
		if err != nil {
			return err
		}
		if rep.Masked > 0 {
			fmt.Fprintln(r.stderr, "mcpscope:", maskedSent(rep.Masked))
		}
		if !rep.Same() {
			return replayDiffers{}
		}
		return nil
	}
	o.KeepSame = -1 // the printed report shows differences only
	if p := newProgressLine(r.stderr); p != nil {
		o.Progress = p.show
		defer p.end()
	}
	rep, err := recordings.Replay(r.ctx, t, s, o)
	if err != nil {
		return err
	}
	if c.JSON {
		if err := r.printJSON(rep); err != nil {
			return err
		}
	} else {
		r.printReport(rep)
	}
	if rep.Masked > 0 {
		fmt.Fprintln(r.stderr, "mcpscope:", maskedSent(rep.Masked))
	}
	if !rep.Same() {
		return replayDiffers{}
	}
	return nil
}

// givenFlags are the names of the flags given on the command line.
func givenFlags(kctx *kong.Context) map[string]bool {
	given := map[string]bool{}
	if kctx == nil {
		return given
	}
	for _, p := range kctx.Path {
		if p.Flag != nil && !p.Resolved {
			given[p.Flag.Name] = true
		}
	}
	return given
}

// recordedHandshake makes the replay present itself as the recorded client did: the
// revision it asked for (else the recording's --protocol), its capabilities and its
// clientInfo. Flags given on the command line win: --protocol, and each capability flag
// over the capability it is about.
func recordedHandshake(cfg *session.Config, t *recordings.Transcript, given map[string]bool) {
	rc, ok := t.RecordedClient()
	if !given["protocol"] {
		switch {
		case ok && rc.Protocol != "":
			cfg.Protocol = rc.Protocol
		case t.Header.Protocol != "":
			cfg.Protocol = t.Header.Protocol
		}
	}
	if !ok {
		return
	}
	if rc.HasCaps {
		caps := rc.Caps
		if given["no-roots"] {
			caps.Roots, caps.RootsListChanged = cfg.Caps.Roots, cfg.Caps.RootsListChanged
		}
		if given["no-sampling"] {
			caps.Sampling = cfg.Caps.Sampling
		}
		if given["elicitation"] {
			caps.ElicitForm, caps.ElicitURL = cfg.Caps.ElicitForm, cfg.Caps.ElicitURL
		}
		if given["tasks"] {
			caps.Tasks = cfg.Caps.Tasks
		}
		if given["no-apps"] {
			caps.Apps = cfg.Caps.Apps
		}
		cfg.Caps = caps
	}
	if rc.Info != nil {
		cfg.ClientInfo = *rc.Info
	}
}

// printReport writes the summary table, then every difference.
func (r *runner) printReport(rep *recordings.Report) {
	tw := tabwriter.NewWriter(r.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tMETHOD\tSTATUS\tDIFFERENCES")
	counts := map[string]int{}
	for _, x := range rep.Results {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\n", x.N, replay.MethodTarget(x), x.Status, len(x.Differences))
		counts[x.Status]++
	}
	_ = tw.Flush()
	for _, x := range rep.Results {
		if len(x.Differences) == 0 && x.Error == "" {
			continue
		}
		fmt.Fprintf(r.stdout, "\n#%d %s (%s)\n", x.N, replay.MethodTarget(x), x.Status)
		if x.Error != "" {
			fmt.Fprintf(r.stdout, "  %s\n", x.Error)
		}
		for _, d := range x.Differences {
			fmt.Fprintf(r.stdout, "  %s\n", d)
		}
	}
	var parts []string
	for _, st := range []string{recordings.StatusSame, recordings.StatusCancelled, recordings.StatusDifferent, recordings.StatusMissing, recordings.StatusExtra, recordings.StatusError} {
		if counts[st] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[st], st))
		}
	}
	fmt.Fprintf(r.stdout, "\n%d requests replayed (handshake included): %s; %d notifications re-sent\n", len(rep.Results), strings.Join(parts, ", "), rep.Notifications)
	for _, k := range rep.Skipped {
		fmt.Fprintln(r.stdout, k)
	}
	for _, p := range rep.Problems {
		fmt.Fprintln(r.stderr, "mcpscope: recording:", p)
	}
}

// maskedSent says that replayed frames carried the recording's masked bytes.
func maskedSent(n int) string {
	return fmt.Sprintf("%s sent as the recording holds them, masked: the server got %s where the secrets were (record with --no-redact to replay them)",
		textfmt.Plural(n, "frame"), recordings.Mask)
}
