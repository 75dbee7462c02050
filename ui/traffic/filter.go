package traffic

import "github.com/mcpscope/mcpscope/protocol/query"

// Query is a parsed timeline filter: free words and field:value terms, all of which must
// match; a term can be negated with a leading '-'. The language is protocol/query's (the
// fields and what they match are its table query.Fields); this adds what a search of a
// recording needs.
type Query struct {
	terms []term
	Err   string // why part of the query was not understood (that part is ignored)
}

type term struct {
	neg   bool
	match func(e *Entry) bool
	pre   prefilterTerm // what a recording's line must hold to match (see filter_prefilter.go)
	rel   *relation     // the term needs the rows around an event (see filter_relate.go)
}

// Empty reports whether the query matches everything.
func (q Query) Empty() bool { return len(q.terms) == 0 }

// Match reports whether e passes the query.
func (q Query) Match(e *Entry) bool {
	if e.Marker != "" {
		return true
	}
	for _, t := range q.terms {
		if t.match(e) == t.neg {
			return false
		}
	}
	return true
}

// ParseQuery parses the filter text (query.Parse), and adds to each term what a search of
// a recording needs: its prefilter and its relation.
func ParseQuery(s string) Query {
	pq := query.Parse(s)
	q := Query{Err: pq.Err()}
	for _, t := range pq.Terms {
		m := t.Match
		tt := term{neg: t.Neg, match: func(e *Entry) bool { return m(entrySubject{e}) }}
		if t.Field == "" {
			tt.pre = wordPrefilter(t.Value)
		} else {
			tt.pre, tt.rel = fieldPrefilter(t.Field, t.Value), relationOf(t.Field, t.Value)
		}
		q.terms = append(q.terms, tt)
	}
	return q
}
