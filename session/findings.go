package session

import (
	"fmt"
	"strings"
)

// FindingCount is how often one finding code was seen in a session.
type FindingCount struct {
	Code  string
	Count int
}

// findingTally counts the findings of every event published, by code, in the order each
// code first appeared. s.mu guards it.
type findingTally struct {
	total int
	order []string
	n     map[string]int
}

// add counts e's findings: a frame's and those of any other event.
func (t *findingTally) add(e *Event) {
	if e.Frame != nil {
		for _, f := range e.Frame.Findings {
			t.one(f.Code)
		}
	}
	for _, f := range e.Findings {
		t.one(f.Code)
	}
}

func (t *findingTally) one(code string) {
	if t.n == nil {
		t.n = map[string]int{}
	}
	if _, ok := t.n[code]; !ok {
		t.order = append(t.order, code)
	}
	t.n[code]++
	t.total++
}

// Findings counts the findings the session has published so far (on frames either way
// and on other events, as the interactive view flags them), by code, in the order each
// code first appeared.
func (s *Session) Findings() []FindingCount {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]FindingCount, 0, len(s.tally.order))
	for _, c := range s.tally.order {
		out = append(out, FindingCount{Code: c, Count: s.tally.n[c]})
	}
	return out
}

// FindingsLine is one line summing up counts: "2 findings: stdout.non-json ×2", the
// codes in order, at most max of them named ("and 3 more codes" for the rest); "" when
// counts is empty.
func FindingsLine(counts []FindingCount, max int) string {
	total := 0
	for _, c := range counts {
		total += c.Count
	}
	if total == 0 {
		return ""
	}
	noun := "findings"
	if total == 1 {
		noun = "finding"
	}
	parts := make([]string, 0, min(len(counts), max)+1)
	for i, c := range counts {
		if i == max {
			more := "codes"
			if len(counts)-max == 1 {
				more = "code"
			}
			parts = append(parts, fmt.Sprintf("and %d more %s", len(counts)-max, more))
			break
		}
		parts = append(parts, fmt.Sprintf("%s ×%d", c.Code, c.Count))
	}
	return fmt.Sprintf("%d %s: %s", total, noun, strings.Join(parts, ", "))
}
