package fault

import "time"

// hold holds a line a breakpoint matched, without holding what follows it: the user's
// decision writes it on (as it came, or edited), drops it, or answers the sender (Back).
// With no Note (nobody to tell) or past the bounds, the line passes on.
func (s *Stream) hold(line, body, term []byte, v Verdict) error {
	if s.Note == nil {
		_, err := s.Out.Write(line)
		return err
	}
	note := func(text string) { s.Note(HoldNoteKind, text) }
	raw := clone(line)
	held := s.Engine.Hold(s.Dir, body, v, true, s, note, func(d Decision) error {
		switch d.Verb {
		case Forward:
			b, msg := raw, raw[:len(body)]
			if d.Raw != nil {
				b, msg = withTerm(d.Raw, term), d.Raw
			}
			// What goes on passes the rules, as the bytes delivered.
			return s.apply(b, term, s.Engine.JudgeRules(s.Dir, msg, time.Now()))
		case Answer:
			if s.Back == nil {
				return nil
			}
			if s.Made != nil {
				s.Made(d.Raw)
			}
			_, err := s.Back.Write(append(clone(d.Raw), '\n'))
			return err
		}
		return nil
	})
	if held {
		return nil
	}
	_, err := s.Out.Write(line)
	return err
}
