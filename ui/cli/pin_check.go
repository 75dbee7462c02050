package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/recordings/pin"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/check"
)

// pinOutcome is what check --pin did: wrote the pin file, or compared the server with it.
type pinOutcome struct {
	File    string      `json:"file"`
	Wrote   bool        `json:"wrote"`             // the pin file was written (it did not exist, or --repin)
	Items   int         `json:"items"`             // how many definitions it holds
	Report  *pin.Report `json:"report,omitempty"`  // the comparison with the pin, when it existed
	LeftOut []string    `json:"leftOut,omitempty"` // kinds left out: the server offers them, the check did not list them whole
}

// changed reports whether the definitions changed since the pin.
func (p *pinOutcome) changed() bool { return p != nil && p.Report != nil && !p.Report.Equal() }

// pinChanged is check --pin's failure when the definitions changed: exit code 1, as diff's.
type pinChanged struct{ n int }

func (e pinChanged) Error() string {
	return fmt.Sprintf("%d definitions changed since the pin", e.n)
}
func (pinChanged) ExitCode() int        { return ExitDiffers }
func (pinChanged) Is(target error) bool { return target == errReported }

// definitionsSet is the pin set of a check run's definitions, and the lists the server
// offers that the run did not fetch whole.
func definitionsSet(d check.Definitions) (*pin.Set, []session.ListKind) {
	info := session.ServerInfo{Implementation: d.ServerInfo, Capabilities: d.Capabilities, Instructions: d.Instructions, Revision: d.Revision}
	lists := map[session.ListKind][]json.RawMessage{}
	for l, items := range map[session.ListKind][]json.RawMessage{session.ListTools: d.Tools, session.ListPrompts: d.Prompts,
		session.ListResources: d.Resources, session.ListTemplates: d.Templates} {
		if d.Listed[l] {
			lists[l] = items
		}
	}
	var missing []session.ListKind
	for _, l := range pin.Advertised(d.Capabilities) {
		if !d.Listed[l] {
			missing = append(missing, l)
		}
	}
	return pin.New(info, lists), missing
}

// pinDefinitions writes the pin file from the check's first run when it does not exist (or
// repin says so), else compares the run's definitions with it.
func pinDefinitions(file string, repin bool, rep *check.Report) (*pinOutcome, error) {
	if len(rep.Runs) == 0 {
		return nil, fmt.Errorf("--pin: the check made no run")
	}
	run := rep.Runs[0]
	if run.Err != "" {
		return nil, fmt.Errorf("--pin: the check stopped early (%s); nothing is pinned or compared", run.Err)
	}
	cur, missing := definitionsSet(run.Definitions)
	cur.Source = "the server now"
	out := &pinOutcome{File: file}
	_, statErr := os.Stat(file)
	if repin || errors.Is(statErr, fs.ErrNotExist) {
		if len(missing) > 0 {
			return nil, notCompared{fmt.Errorf("--pin: the server offers %s, but the check could not list them whole; nothing was pinned", kindNames(missing))}
		}
		cur.Created = time.Now().UTC().Truncate(time.Second)
		if err := cur.Save(file); err != nil {
			return nil, err
		}
		out.Wrote, out.Items = true, len(cur.Items)
		return out, nil
	}
	old, err := pin.Load(file)
	if err != nil {
		return nil, usageError{err}
	}
	var drop []pin.Kind
	for _, l := range missing {
		drop = append(drop, pin.KindOf(l))
		out.LeftOut = append(out.LeftOut, string(pin.KindOf(l)))
	}
	out.Items = len(old.Items)
	out.Report = pin.Compare(old.Without(drop...), cur.Without(drop...))
	return out, nil
}

// writeText tells a person what check --pin did.
func (p *pinOutcome) writeText(w io.Writer) {
	fmt.Fprintln(w)
	switch {
	case p.Wrote:
		fmt.Fprintf(w, "pinned %d definitions to %s (%s of their %s canonical JSON)\n", p.Items, p.File, pin.HashAlgorithm, pin.Canonicalization)
		return
	case len(p.LeftOut) > 0:
		fmt.Fprintf(w, "pin %s: %s left out of the comparison (not listed whole)\n", p.File, strings.Join(p.LeftOut, ", "))
	}
	if p.Report.Equal() {
		fmt.Fprintf(w, "pin %s: the definitions are as pinned (%d items)\n", p.File, p.Report.Same)
		return
	}
	fmt.Fprintf(w, "pin %s: the definitions CHANGED since the pin; check each change before trusting it, then run again with --repin\n", p.File)
	p.Report.WriteText(w)
}

func kindNames(ls []session.ListKind) string {
	var out []string
	for _, l := range ls {
		out = append(out, string(pin.KindOf(l))+"s")
	}
	return strings.Join(out, ", ")
}
