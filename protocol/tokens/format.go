package tokens

import "strconv"

// Thousands writes a count with a comma every three digits ("2,972"): the one way reports
// and findings write a number of tokens.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return s
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
