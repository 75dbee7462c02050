package explorer

import (
	"unicode"
	"unicode/utf8"
)

// fuzzyResult is how well a pattern matched a text: a score (higher is better) and the rune
// positions of the text that matched, in order, for highlighting.
type fuzzyResult struct {
	Score int
	Pos   []int
}

// Scoring weights. A contiguous run of matches and matches at word starts count most, so
// "add" ranks "add_numbers" above "a_d_d"; a shorter text wins a tie.
const (
	fuzzyMatchPts   = 16 // each matched rune
	fuzzyAdjacent   = 12 // a matched rune right after the previous match
	fuzzyFirstRune  = 10 // a match at the start of the text
	fuzzyWordStart  = 8  // a match after a separator or at a camelCase hump
	fuzzyGapPenalty = 2  // each unmatched rune between the first and last match
	fuzzyLeadCap    = 8  // at most this many points lost to a late first match
	fuzzyTrailCap   = 4  // at most this many points lost to text after the last match
)

// fuzzyMatch reports whether every rune of pattern occurs in text in order, ignoring case,
// and how well. An empty pattern matches everything with score 0.
//
// It scores each place the whole pattern occurs as one substring and the tightest scattered
// alignment (the leftmost match, then shortened from its end backwards), and keeps the best.
func fuzzyMatch(pattern, text string) (fuzzyResult, bool) {
	if pattern == "" {
		return fuzzyResult{}, true
	}
	if utf8.RuneCountInString(pattern) > utf8.RuneCountInString(text) {
		return fuzzyResult{}, false
	}
	p := foldRunes(pattern)
	orig := []rune(text)
	t := foldRunes(text)

	best, ok := fuzzyResult{}, false
	try := func(pos []int) {
		sc := fuzzyScore(orig, pos)
		if !ok || sc > best.Score {
			best, ok = fuzzyResult{Score: sc, Pos: pos}, true
		}
	}
	// Every substring occurrence (bounded, for pathological texts).
	for start, n := 0, 0; start+len(p) <= len(t) && n < 16; start++ {
		if runesHasPrefix(t[start:], p) {
			pos := make([]int, len(p))
			for i := range pos {
				pos[i] = start + i
			}
			try(pos)
			n++
		}
	}
	if pos := scatteredMatch(p, t); pos != nil {
		try(pos)
	}
	return best, ok
}

// scatteredMatch finds the leftmost in-order match of p in t, then walks back from its last
// rune to the latest possible start, which gives the shortest window ending there.
func scatteredMatch(p, t []rune) []int {
	pi, end := 0, -1
	for i, r := range t {
		if r == p[pi] {
			pi++
			if pi == len(p) {
				end = i
				break
			}
		}
	}
	if end < 0 {
		return nil
	}
	pos := make([]int, len(p))
	pi = len(p) - 1
	for i := end; i >= 0 && pi >= 0; i-- {
		if t[i] == p[pi] {
			pos[pi] = i
			pi--
		}
	}
	return pos
}

// fuzzyScore scores matched positions pos of text.
func fuzzyScore(text []rune, pos []int) int {
	score := 0
	for i, at := range pos {
		score += fuzzyMatchPts
		switch {
		case at == 0:
			score += fuzzyFirstRune
		case wordStart(text, at):
			score += fuzzyWordStart
		}
		if i > 0 {
			if at == pos[i-1]+1 {
				score += fuzzyAdjacent
			} else {
				score -= fuzzyGapPenalty * (at - pos[i-1] - 1)
			}
		}
	}
	score -= min(pos[0], fuzzyLeadCap)
	score -= min(len(text)-1-pos[len(pos)-1], fuzzyTrailCap)
	return score
}

// wordStart reports whether text[i] begins a word: after a separator, or an upper-case
// letter after a lower-case one, or a digit after a letter.
func wordStart(text []rune, i int) bool {
	prev, cur := text[i-1], text[i]
	switch {
	case !unicode.IsLetter(prev) && !unicode.IsDigit(prev):
		return unicode.IsLetter(cur) || unicode.IsDigit(cur)
	case unicode.IsLower(prev) && unicode.IsUpper(cur):
		return true
	case unicode.IsLetter(prev) && unicode.IsDigit(cur):
		return true
	}
	return false
}

func foldRunes(s string) []rune {
	r := []rune(s)
	for i, c := range r {
		r[i] = unicode.ToLower(c)
	}
	return r
}

func runesHasPrefix(s, prefix []rune) bool {
	if len(prefix) > len(s) {
		return false
	}
	for i, r := range prefix {
		if s[i] != r {
			return false
		}
	}
	return true
}
