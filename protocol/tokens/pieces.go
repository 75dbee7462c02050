package tokens

import "sync"

// The vocabulary splits text into pieces with a regular expression before it merges each
// piece's bytes (o200k_base's pattern, run by regexp2). On ASCII text that expression is the
// slow part, so asciiPieces does the same split by hand, and the count of each distinct
// piece is remembered: a tool list repeats the same pieces (`":"`, `type`, ` the`) thousands
// of times. Text with a byte beyond ASCII goes through the expression as it is.
// TestASCIIPiecesMatchTheExpression holds the two splits equal.

// asciiPieces calls f with each piece of the ASCII text s, in order, as o200k_base's
// pattern splits it:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	\p{N}{1,3}
//	 ?[^\s\p{L}\p{N}]+[\r\n/]*
//	\s*[\r\n]+
//	\s+(?!\S)
//	\s+
func asciiPieces(s string, f func(piece string)) {
	for i := 0; i < len(s); {
		end := asciiPiece(s, i)
		f(s[i:end])
		i = end
	}
}

func isUpper(c byte) bool  { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool  { return c >= 'a' && c <= 'z' }
func isLetter(c byte) bool { return isUpper(c) || isLower(c) }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isSpace(c byte) bool  { return c == ' ' || c >= '\t' && c <= '\r' }
func isCRLF(c byte) bool   { return c == '\r' || c == '\n' }

// asciiPiece is the end of the piece that starts at s[i].
func asciiPiece(s string, i int) int {
	n := len(s)
	c := s[i]
	start := i
	if !isLetter(c) && !isDigit(c) && !isCRLF(c) {
		start = i + 1 // the optional leading character of the first two alternatives
	}
	// 1: upper* lower+ ; 2: upper+ lower*
	k := start
	for k < n && isUpper(s[k]) {
		k++
	}
	m := k
	for m < n && isLower(s[m]) {
		m++
	}
	if m > k || k > start {
		return contraction(s, m)
	}
	// 3: up to three digits
	if isDigit(c) {
		m := i + 1
		for m < n && m < i+3 && isDigit(s[m]) {
			m++
		}
		return m
	}
	// 4: an optional space, punctuation, then line breaks and slashes
	k = i
	if c == ' ' {
		k++
	}
	m = k
	for m < n && !isSpace(s[m]) && !isLetter(s[m]) && !isDigit(s[m]) {
		m++
	}
	if m > k {
		for m < n && (isCRLF(s[m]) || s[m] == '/') {
			m++
		}
		return m
	}
	// 5, 6, 7: whitespace
	w := i
	for w < n && isSpace(s[w]) {
		w++
	}
	for q := w - 1; q >= i; q-- {
		if isCRLF(s[q]) {
			return q + 1 // 5: whitespace up to its last line break
		}
	}
	if w == n || w-1 == i {
		return w // 6 up to the end, or 7: one whitespace character before a non-space
	}
	return w - 1 // 6: all but the last, which leads the next piece
}

// contraction is the end of an optional 's 't 're 've 'm 'll 'd (any case) at s[m].
func contraction(s string, m int) int {
	if m >= len(s) || s[m] != '\'' || m+1 >= len(s) {
		return m
	}
	switch s[m+1] | 0x20 {
	case 's', 't', 'm', 'd':
		return m + 2
	case 'r', 'v':
		if m+2 < len(s) && s[m+2]|0x20 == 'e' {
			return m + 3
		}
	case 'l':
		if m+2 < len(s) && s[m+2]|0x20 == 'l' {
			return m + 3
		}
	}
	return m
}

// memoLimit bounds the remembered pieces; past it the memory starts afresh.
const memoLimit = 1 << 16

// memo remembers how many tokens each piece costs.
var memo struct {
	sync.Mutex
	n map[string]int
}

// piecesCost is the tokens of the ASCII text s, piece by piece, each piece's count
// remembered.
func piecesCost(s string, encode func(string) int) int {
	memo.Lock()
	defer memo.Unlock()
	total := 0
	asciiPieces(s, func(p string) {
		n, ok := memo.n[p]
		if !ok {
			n = encode(p)
			if memo.n == nil || len(memo.n) >= memoLimit {
				memo.n = make(map[string]int, 1024)
			}
			memo.n[p] = n
		}
		total += n
	})
	return total
}

// forget clears the remembered pieces (for benchmarks that count from cold).
func forget() {
	memo.Lock()
	memo.n = nil
	memo.Unlock()
}
