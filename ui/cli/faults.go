package cli

import (
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/session/transport"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// FaultFlags put fault rules on the wire: of the interactive view's session, of every
// headless command's, of replay's and of a tap (both directions).
type FaultFlags struct {
	Fault  []string `sep:"none" help:"A fault rule: ACTION[=ARG] MATCH [p=PROB] [times=N] [after=N], MATCH in the filter's language; actions delay=D, drop, error=CODE[:MESSAGE], corrupt=truncate|invalid-json|wrong-id|wrong-version|duplicate, reorder, disconnect, throttle=BYTES/s (repeatable; the first rule that matches a message acts)." placeholder:"RULE" group:"Faults"`
	Faults []string `sep:"none" type:"path" help:"Read fault rules from FILE, one a line, # comments (repeatable)." placeholder:"FILE" group:"Faults"`
	Seed   int64    `help:"Seed of the fault rules' p= draws, to repeat a run (default: a new seed each run, said on stderr)." default:"-1" placeholder:"N" group:"Faults"`
}

// faultRules reads the rules once, at start: a bad one is a usage error naming its place.
func (f *FaultFlags) faultRules() ([]fault.Rule, error) {
	rules, err := fault.ParseRules(f.Fault, f.Faults)
	if err != nil {
		return nil, usageError{err}
	}
	return rules, nil
}

// faultSeed is --seed, or a new one when it was not given.
func (f *FaultFlags) faultSeed() uint64 {
	if f.Seed >= 0 {
		return uint64(f.Seed)
	}
	return uint64(time.Now().UnixNano())
}

// faultSetup reads the rules and picks the seed, once, at start; the seed is said on
// stderr (unless given, or --quiet) so a run can be repeated.
func (r *runner) faultSetup() ([]fault.Rule, uint64, error) {
	rules, err := r.flags.faultRules()
	if err != nil || len(rules) == 0 {
		return nil, 0, err
	}
	seed := r.flags.faultSeed()
	if !r.flags.Quiet && r.flags.Seed < 0 {
		fmt.Fprintf(r.stderr, "mcpscope: %s, --seed %d\n", textfmt.Plural(len(rules), "fault rule"), seed)
	}
	return rules, seed, nil
}

// withFaults puts the fault rules on tr's wire; tr itself when there are none.
func (r *runner) withFaults(tr transport.Transport) (transport.Transport, error) {
	rules, seed, err := r.faultSetup()
	return wrapFaults(tr, rules, seed), err
}

// wrapFaults puts rules on tr's wire with a new engine (each session counts times= and
// after= from its start, and draws from seed afresh); tr itself when there are no rules.
func wrapFaults(tr transport.Transport, rules []fault.Rule, seed uint64) transport.Transport {
	if len(rules) == 0 {
		return tr
	}
	return fault.Wrap(tr, fault.NewEngine(rules, seed))
}

// noFaults refuses fault rules where there is no wire of mcpscope's to put them on.
func (f *FaultFlags) noFaults(where string) error {
	if len(f.Fault) > 0 || len(f.Faults) > 0 {
		return usageError{fmt.Errorf("fault rules do not apply to %s", where)}
	}
	return nil
}
