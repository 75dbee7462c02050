package fault

import (
	"fmt"
	"strings"
)

// RulesNoteKind is the kind of the note that says, at the start of a session or a tap,
// which fault rules are on its wire and the seed of their draws: the timeline shows it,
// --trace and the recording keep it, so a run can be repeated with --seed.
const RulesNoteKind = "fault-rules"

// RulesText is the rules' note: the count and the seed on the first line, then each rule
// by its name, as written. "" when the engine has no rules.
func (e *Engine) RulesText() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.rules) == 0 {
		return ""
	}
	var b strings.Builder
	word := "rules"
	if len(e.rules) == 1 {
		word = "rule"
	}
	fmt.Fprintf(&b, "%d fault %s, --seed %d", len(e.rules), word, e.seed)
	for _, r := range e.rules {
		fmt.Fprintf(&b, "\n%s: %s", r.Name, r.Text)
	}
	return b.String()
}
