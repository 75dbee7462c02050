package protocol

import (
	"math/rand/v2"
	"testing"
)

// TestPlainRun: the eight-bytes-at-a-time run stops exactly at the first byte a string scan
// must look at ('"', '\\', a control character), whatever the bytes around it.
func TestPlainRun(t *testing.T) {
	special := func(c byte) bool { return c == '"' || c == '\\' || c < 0x20 }
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte{'a', 'Z', ' ', '"', '\\', 0, 0x1f, 0x20, 0x21, 0x5b, 0x5d, 0x7f, 0x80, 0xa2, 0xdc, 0xff}
	for range 20000 {
		b := make([]byte, rng.IntN(40))
		for k := range b {
			if rng.IntN(6) == 0 {
				b[k] = alphabet[rng.IntN(len(alphabet))]
			} else {
				b[k] = byte(rng.IntN(256))
			}
		}
		start := rng.IntN(len(b) + 1)
		got := plainRun(b, start)
		if got < start || got > len(b) {
			t.Fatalf("plainRun(%q, %d) = %d, out of range", b, start, got)
		}
		for k := start; k < got; k++ {
			if special(b[k]) {
				t.Fatalf("plainRun(%q, %d) = %d passes byte %#x at %d", b, start, got, b[k], k)
			}
		}
		if got < len(b) && !special(b[got]) {
			t.Fatalf("plainRun(%q, %d) = %d stops at a plain byte %#x", b, start, got, b[got])
		}
	}
}
