package fault

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol/query"
)

// Action is what a rule does to a message it matches.
type Action string

// The actions.
const (
	Delay      Action = "delay"      // delay=D: pass it on after D
	Drop       Action = "drop"       // drop: never pass it on
	Error      Action = "error"      // error=CODE[:MESSAGE]: answer a request in the other side's place
	Corrupt    Action = "corrupt"    // corrupt=KIND: pass it on damaged
	Reorder    Action = "reorder"    // reorder: hold it until the next matching message has passed
	Disconnect Action = "disconnect" // disconnect: close the stream instead of passing it on
	Throttle   Action = "throttle"   // throttle=BYTES/s: pass it on at that rate
)

// Corruptions, the KIND of corrupt=KIND.
const (
	Truncate     = "truncate"      // the first half of the bytes
	InvalidJSON  = "invalid-json"  // not JSON: the last byte replaced by a comma and a brace
	WrongID      = "wrong-id"      // an id the other side never used
	WrongVersion = "wrong-version" // "jsonrpc":"1.0"
	Duplicate    = "duplicate"     // passed on twice
)

var corruptions = []string{Truncate, InvalidJSON, WrongID, WrongVersion, Duplicate}

// actions are the actions in the order errors list them, and whether each takes =ARG.
var actions = []struct {
	a   Action
	arg string // "" when it takes none; else what it takes, for errors
}{
	{Delay, "a duration such as 2s"}, {Drop, ""}, {Error, "CODE[:MESSAGE] such as -32603:boom"},
	{Corrupt, strings.Join(corruptions, ", ")}, {Reorder, ""}, {Disconnect, ""}, {Throttle, "BYTES/s such as 100/s"},
}

// Rule is one fault rule: ACTION[=ARG] MATCH [p=PROB] [times=N] [after=N]. MATCH is a
// query of the timeline's language (protocol/query); an empty one matches every message.
type Rule struct {
	Text   string // as written
	Name   string // how the rule is named where it acted: "rule 2" or "FILE:7"
	Action Action

	Delay   time.Duration // delay
	Code    int64         // error
	Message string        // error
	Kind    string        // corrupt
	Rate    int64         // throttle, bytes per second

	Match query.Query
	P     float64 // the probability it acts on a message it may act on; 1 by default
	Times int     // acts at most this many times; 0: no limit
	After int     // lets this many matching messages pass first
}

// ParseRule reads one rule. A rule not understood is refused with the column (counted
// from 1) where the trouble starts.
func ParseRule(s string) (Rule, error) {
	r := Rule{Text: strings.TrimSpace(s), P: 1}
	words := query.Words(s)
	if len(words) == 0 {
		return r, fmt.Errorf("column 1: empty rule: want ACTION[=ARG] MATCH [p=PROB] [times=N] [after=N]")
	}
	// error=CODE:"A MESSAGE" may hold spaces inside its quotes.
	for strings.Count(words[0].Text, `"`) == 1 && len(words) > 1 {
		words[0].Text = s[words[0].Pos : words[1].Pos+len(words[1].Text)]
		words = append(words[:1], words[2:]...)
	}
	if err := r.action(words[0].Text); err != nil {
		return r, fmt.Errorf("column %d: %w", words[0].Pos+1, err)
	}
	// The match is the rule with the action and the options blanked out, so a term's
	// position in it is its position in the rule.
	rest := []byte(s)
	blank := func(w query.Word) {
		for i := w.Pos; i < w.Pos+len(w.Text); i++ {
			rest[i] = ' '
		}
	}
	blank(words[0])
	for _, w := range words[1:] {
		name, val, ok := strings.Cut(w.Text, "=")
		if ok && (name == "p" || name == "times" || name == "after") {
			if err := r.option(name, val); err != nil {
				return r, fmt.Errorf("column %d: %w", w.Pos+1, err)
			}
			blank(w)
		}
	}
	q, err := query.Strict(string(rest))
	if err != nil {
		return r, err
	}
	r.Match = q
	return r, nil
}

func (r *Rule) action(w string) error {
	name, arg, hasArg := strings.Cut(w, "=")
	name = strings.ToLower(name)
	for _, a := range actions {
		if string(a.a) != name {
			continue
		}
		r.Action = a.a
		switch {
		case a.arg == "" && hasArg:
			return fmt.Errorf("%s takes no argument", name)
		case a.arg != "" && (!hasArg || arg == ""):
			return fmt.Errorf("%s needs =ARG: %s", name, a.arg)
		}
		return r.arg(arg, a.arg)
	}
	names := make([]string, len(actions))
	for i, a := range actions {
		names[i] = string(a.a)
	}
	return fmt.Errorf("unknown action %q (want %s)", name, strings.Join(names, ", "))
}

func (r *Rule) arg(arg, want string) error {
	bad := func() error { return fmt.Errorf("%s=%s: want %s", r.Action, arg, want) }
	switch r.Action {
	case Delay:
		d, err := time.ParseDuration(arg)
		if err != nil || d < 0 {
			return bad()
		}
		r.Delay = d
	case Error:
		code, msg, _ := strings.Cut(arg, ":")
		c, err := strconv.ParseInt(code, 10, 64)
		if err != nil {
			return bad()
		}
		if uq, err := strconv.Unquote(msg); err == nil {
			msg = uq
		}
		r.Code, r.Message = c, msg
		if msg == "" {
			r.Message = "injected by mcpscope"
		}
	case Corrupt:
		k := strings.ToLower(arg)
		switch k {
		case "invalid", "invalid_json", "json":
			k = InvalidJSON
		case "id":
			k = WrongID
		case "version", "jsonrpc":
			k = WrongVersion
		case "dup":
			k = Duplicate
		}
		for _, c := range corruptions {
			if c == k {
				r.Kind = k
				return nil
			}
		}
		return bad()
	case Throttle:
		n, ok := strings.CutSuffix(strings.ToLower(arg), "/s")
		rate, err := strconv.ParseInt(n, 10, 64)
		if !ok || err != nil || rate <= 0 {
			return bad()
		}
		r.Rate = rate
	}
	return nil
}

func (r *Rule) option(name, val string) error {
	switch name {
	case "p":
		p, err := strconv.ParseFloat(val, 64)
		if err != nil || p < 0 || p > 1 {
			return fmt.Errorf("p=%s: want a probability from 0 to 1", val)
		}
		r.P = p
	default:
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 {
			return fmt.Errorf("%s=%s: want a count (0 or more)", name, val)
		}
		if name == "times" {
			r.Times = n
		} else {
			r.After = n
		}
	}
	return nil
}

// ParseRules reads the rules of --fault (each one rule) and of the files of --faults
// (one rule a line; blank lines and lines starting with # are skipped). Each rule is
// named by where it was written; the first bad one is refused with its place.
func ParseRules(flags []string, files []string) ([]Rule, error) {
	var rules []Rule
	for i, s := range flags {
		r, err := ParseRule(s)
		if err != nil {
			return nil, fmt.Errorf("--fault %q: %w", s, err)
		}
		r.Name = fmt.Sprintf("rule %d", i+1)
		rules = append(rules, r)
	}
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("--faults: %w", err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for n := 1; sc.Scan(); n++ {
			line := strings.TrimSpace(sc.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			r, err := ParseRule(line)
			if err != nil {
				return nil, fmt.Errorf("--faults %s:%d: %w", path, n, err)
			}
			r.Name = fmt.Sprintf("%s:%d", path, n)
			rules = append(rules, r)
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("--faults %s: %w", path, err)
		}
	}
	return rules, nil
}
