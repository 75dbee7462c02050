package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/ui"
)

// AttachCmd watches a running tap: in the interactive view, read-only, or as NDJSON.
type AttachCmd struct {
	Name          string `arg:"" optional:"" help:"The tap to watch (its --name); with none, the only live one."`
	List          bool   `help:"List the live taps and exit."`
	NDJSON        bool   `name:"ndjson" help:"Print the events as NDJSON on stdout (one --trace line each) instead of opening the interactive view."`
	Debug         string `help:"Write a debug log to this file while the interactive view runs." type:"path" placeholder:"FILE"`
	History       int    `help:"How many timeline rows the interactive view keeps in memory." default:"200000"`
	HistoryBounds `embed:""`
}

// Run implements the command.
func (c AttachCmd) Run(r *runner) error {
	if err := r.flags.noFaults("attach (put them on the tap: mcpscope tap --fault RULE)"); err != nil {
		return err
	}
	if c.List {
		taps, err := recordings.ListTaps()
		if err != nil {
			return err
		}
		if len(taps) == 0 {
			fmt.Fprintf(r.stderr, "mcpscope: no live taps (searched %s)\n", strings.Join(recordings.TapDirs(), ", "))
		}
		printTaps(r.stdout, taps)
		return nil
	}
	name := c.Name
	if name == "" {
		taps, err := recordings.ListTaps()
		if err != nil {
			return err
		}
		switch len(taps) {
		case 0:
			return connectFailure{fmt.Errorf("no live taps (searched %s): start one with mcpscope tap -- CMD ARGS", strings.Join(recordings.TapDirs(), ", "))}
		case 1:
			name = taps[0].Name
		default:
			fmt.Fprintln(r.stderr, "mcpscope: several taps are live; name one:")
			printTaps(r.stderr, taps)
			return exitStatus(ExitUsage)
		}
	}
	l, err := recordings.Dial(name)
	if err != nil {
		return connectFailure{err}
	}
	if !c.NDJSON {
		opts := ui.Options{Target: name, TransportName: l.Header().Transport, HistoryLimit: c.History}
		if err := c.HistoryBounds.apply(&opts); err != nil {
			l.Close()
			return err
		}
		opts.Live = ui.NewLiveFeed(l, name)
		opts.Breakpoints = l.Breakpoints() // b and B set the tap's; it holds, the view decides
		defer opts.Live.Close()
		return ui.Run(r.ctx, opts, c.Debug)
	}
	defer l.Close()
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-r.ctx.Done():
			l.Close()
		case <-stop:
		}
	}()
	enc := json.NewEncoder(r.stdout)
	for {
		e, err := l.Next()
		if err != nil {
			if n := l.Dropped(); n > 0 {
				fmt.Fprintf(r.stderr, "mcpscope attach: %d events were dropped because this viewer fell behind\n", n)
			}
			if errors.Is(err, io.EOF) || r.ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("attach %s: %w", name, err)
		}
		if err := enc.Encode(e.Event.JSON()); err != nil {
			return err
		}
	}
}

// printTaps writes one line per tap: name, transport, start time, the file it records to
// ("-" for none) and the server (last: it may hold spaces).
func printTaps(w io.Writer, taps []recordings.TapInfo) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, t := range taps {
		h := t.Header
		rec := t.Recording
		if rec == "" {
			rec = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", t.Name, h.Transport, h.Started.Local().Format(time.DateTime), rec, h.Server)
	}
	tw.Flush()
}

// connectFailure is an error that exits with ExitConnect.
type connectFailure struct{ error }

func (e connectFailure) ExitCode() int { return ExitConnect }
func (e connectFailure) Unwrap() error { return e.error }
