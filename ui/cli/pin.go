package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/mcpscope/mcpscope/recordings/pin"
	"github.com/mcpscope/mcpscope/session"
)

// DiffCmd compares the definitions of two servers, recordings or pin files.
type DiffCmd struct {
	Sides []string `arg:"" optional:"" name:"A B" help:"What to compare: each a pin file, a recording (.jsonl), a URL, or - for the server selected by -- CMD ARGS, --url or --config (the built-in demo when none is); a missing B is that server."`
	JSON  bool     `name:"json" help:"Print the report as JSON."`
}

// definitionsDiffer is the outcome of a comparison that found changes: exit code 1, the
// report already printed.
type definitionsDiffer struct{}

func (definitionsDiffer) Error() string { return "the definitions differ" }
func (definitionsDiffer) ExitCode() int { return ExitDiffers }
func (definitionsDiffer) Unwrap() error { return errReported }

// notCompared is diff's and check --pin's failure when a side's definitions could not be
// read whole (a list answered an error, a malformed page): exit code 9, never 1, which
// says that the definitions differ. A connection, authorization or timeout failure keeps
// its own code.
type notCompared struct{ err error }

func (e notCompared) Error() string { return e.err.Error() }
func (e notCompared) Unwrap() error { return e.err }
func (notCompared) ExitCode() int   { return ExitNotCompared }

// notComparedErr is err as notCompared when it would otherwise exit with 1 or 6.
func notComparedErr(err error) error {
	if c := exitCode(err); c == ExitRPCError || c == ExitFailure {
		return notCompared{fmt.Errorf("could not compare: %w", err)}
	}
	return err
}

// ExitDiffers is diff's exit code when the definitions differ (and check --pin's when they
// changed since the pin), as diff(1) has it.
const ExitDiffers = 1

// Run implements the command.
func (c DiffCmd) Run(r *runner) error {
	sides := append([]string(nil), c.Sides...)
	selected := len(r.command) > 0 || r.flags.URL != "" || r.flags.Config != ""
	switch len(sides) {
	case 0:
		return usageError{fmt.Errorf("diff needs what to compare: diff A B, or diff A -- CMD ARGS (each a pin file, a recording, a URL, or -)")}
	case 1:
		sides = append(sides, "-")
	case 2:
	default:
		return usageError{fmt.Errorf("diff compares two things, not %d (a server command goes after --)", len(sides))}
	}
	if selected && sides[0] != "-" && sides[1] != "-" {
		return usageError{fmt.Errorf("the server selected by --, --url or --config is not compared: write - in its place (diff %s -)", sides[0])}
	}
	var sets [2]*pin.Set
	var missing [2][]session.ListKind
	for i, w := range sides {
		set, miss, err := r.definitions(w)
		if err != nil {
			return notComparedErr(err)
		}
		sets[i], missing[i] = set, miss
		for _, n := range set.Notes {
			fmt.Fprintf(r.stderr, "mcpscope: warning: %s: %s\n", set.Source, n)
		}
	}
	var drop []pin.Kind
	for i, miss := range missing {
		var names []string
		for _, l := range miss {
			drop = append(drop, pin.KindOf(l))
			names = append(names, string(pin.KindOf(l))+"s")
		}
		if len(names) > 0 {
			fmt.Fprintf(r.stderr, "mcpscope: %s never lists all its %s; they are left out of the comparison\n", sets[i].Source, strings.Join(names, ", "))
		}
	}
	rep := pin.Compare(sets[0].Without(drop...), sets[1].Without(drop...))
	// What is printed is masked as check's report is: the secrets the flags name.
	mask := r.flags.screenMasker(r.command)
	var buf bytes.Buffer
	if c.JSON {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		buf.Write(append(b, '\n'))
	} else {
		fmt.Fprintf(&buf, "--- %s\n+++ %s\n", rep.Old, rep.New)
		rep.WriteText(&buf)
	}
	if _, err := r.stdout.Write(mask.Bytes(buf.Bytes())); err != nil {
		return err
	}
	if !rep.Equal() {
		return definitionsDiffer{}
	}
	return nil
}

// definitions reads one side of a comparison: "-" the selected server, a URL that server,
// anything else a pin file or a recording. A recording's lists that it never fetched whole
// are returned as missing.
func (r *runner) definitions(word string) (*pin.Set, []session.ListKind, error) {
	if word == "-" || strings.HasPrefix(word, "http://") || strings.HasPrefix(word, "https://") {
		sub := *r
		if word != "-" {
			flags := *r.flags
			flags.URL, flags.Config, flags.Server = word, "", ""
			sub.flags, sub.command = &flags, nil
		}
		set, err := sub.liveDefinitions()
		return set, nil, err
	}
	head, err := readHead(word)
	if err != nil {
		return nil, nil, usageError{err}
	}
	if bytes.Contains(head, []byte(`"mcpscope_pin"`)) {
		set, err := pin.Load(word)
		if err != nil {
			return nil, nil, usageError{err}
		}
		return set, nil, nil
	}
	set, missing, err := pin.FromRecording(word)
	if err != nil {
		return nil, nil, usageError{fmt.Errorf("%s is neither a pin file nor a recording: %w", word, err)}
	}
	return set, missing, nil
}

// liveDefinitions connects to the selected server and reads its definitions.
func (r *runner) liveDefinitions() (*pin.Set, error) {
	s, done, err := r.connect()
	if err != nil {
		return nil, err
	}
	defer done()
	set, err := pin.FromSession(r.ctx, s)
	if err != nil {
		return nil, err
	}
	sp, _ := r.flags.spec(r.command)
	set.Source = r.flags.screenMasker(r.command).String(sp.Describe())
	return set, nil
}

// readHead reads the first bytes of a file, enough to tell a pin file from a recording.
func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, 512)
	n, _ := f.Read(buf)
	return buf[:n], nil
}
