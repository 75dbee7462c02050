package query

import (
	"fmt"
	"strings"
)

// Term is one term of a query: a free word or field:value, negated by a leading '-'.
type Term struct {
	Neg   bool
	Field string // the field's name in Fields (an alias is read as its name); "" for a word
	Value string // the value after the colon, or the word
	Pos   int    // where the term starts in the text (a byte offset)
	Match Matcher
}

// Query is a parsed query: terms that must all match.
type Query struct {
	Terms []Term
	// Errs are the terms not understood; Parse leaves them out of Terms.
	Errs []*Error
}

// Error is a term that was not understood, and where it starts in the text.
type Error struct {
	Pos  int // byte offset of the term
	Term string
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// Empty reports whether the query matches everything.
func (q Query) Empty() bool { return len(q.Terms) == 0 }

// Err is the query's errors joined, "" when every term was understood.
func (q Query) Err() string {
	msgs := make([]string, len(q.Errs))
	for i, e := range q.Errs {
		msgs[i] = e.Msg
	}
	return strings.Join(msgs, "; ")
}

// Match reports whether s passes every term.
func (q Query) Match(s Subject) bool {
	for _, t := range q.Terms {
		if t.Match(s) == t.Neg {
			return false
		}
	}
	return true
}

// Parse reads a query: words separated by spaces, each a free word or field:value (a
// field of Fields or one of its aliases), each negated by a leading '-'. A term not
// understood is left out and reported in Errs with its position: the timeline's filter
// keeps the rest while the user types; a rule refuses the whole text.
func Parse(s string) Query {
	var q Query
	for _, w := range Words(s) {
		q.add(w.Text, w.Pos)
	}
	return q
}

// Word is one space-separated word of a text and where it starts.
type Word struct {
	Text string
	Pos  int
}

// Words splits s at white space, keeping each word's byte offset.
func Words(s string) []Word {
	var out []Word
	start := -1
	for i, r := range s {
		space := r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f'
		switch {
		case space && start >= 0:
			out = append(out, Word{s[start:i], start})
			start = -1
		case !space && start < 0:
			start = i
		}
	}
	if start >= 0 {
		out = append(out, Word{s[start:], start})
	}
	return out
}

// add parses one term at pos.
func (q *Query) add(w string, pos int) {
	whole := w
	neg := false
	if len(w) > 1 && w[0] == '-' {
		neg, w = true, w[1:]
	}
	field, value, ok := strings.Cut(w, ":")
	if !ok || value == "" {
		q.Terms = append(q.Terms, Term{Neg: neg, Value: w, Pos: pos, Match: MatchWord(w)})
		return
	}
	field = strings.ToLower(field)
	m, err := fieldMatcher(field, value)
	if err != nil {
		q.Errs = append(q.Errs, &Error{Pos: pos, Term: whole, Msg: err.Error()})
		return
	}
	q.Terms = append(q.Terms, Term{Neg: neg, Field: LookupField(field).Name, Value: value, Pos: pos, Match: m})
}

// Strict is Parse that refuses a query with a term it does not understand: the error
// says where (column, counted from 1) and why.
func Strict(s string) (Query, error) {
	q := Parse(s)
	if len(q.Errs) > 0 {
		e := q.Errs[0]
		return q, fmt.Errorf("column %d: %s", e.Pos+1, e.Msg)
	}
	return q, nil
}
