package common

import "charm.land/bubbles/v2/key"

// BreakKeys are the bindings of breakpoints: setting one on a row, the list, and the
// dialog of a held message.
type BreakKeys struct {
	// Timeline and everywhere.
	Set, List key.Binding
	// The breakpoint list.
	Add, Toggle, Remove key.Binding
	// A held message.
	Forward, Edit, Drop, AnswerError, AnswerResult, ContinueAll key.Binding
}

// DefaultBreakKeys are the breakpoint bindings.
func DefaultBreakKeys() BreakKeys {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return BreakKeys{
		Set:  b("b", "break on this row's method or tool", "b"),
		List: b("B", "breakpoints…", "B"),

		Add:    b("a", "add a breakpoint (any filter query)", "a"),
		Toggle: b("space", "enable / disable", "space"),
		Remove: b("d", "remove", "d"),

		Forward:      b("f", "forward as it is", "f"),
		Edit:         b("e", "edit, then forward (ctrl+s)", "e"),
		Drop:         b("d", "drop", "d"),
		AnswerError:  b("x", "answer with an error", "x"),
		AnswerResult: b("r", "answer with a result (ctrl+s)", "r"),
		ContinueAll:  b("C", "continue all held", "C"),
	}
}

// groups are the breakpoint bindings, for the full help and README.
func (k *BreakKeys) groups() []Group {
	return []Group{
		{"Breakpoints", []key.Binding{k.Set, k.List, k.Add, k.Toggle, k.Remove}},
		{"Held message", []key.Binding{k.Forward, k.Edit, k.Drop, k.AnswerError, k.AnswerResult, k.ContinueAll}},
	}
}
