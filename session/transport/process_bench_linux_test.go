package transport

import (
	"context"
	"testing"
)

// BenchmarkSpawn measures what the supervisor adds to starting a server: spawning /bin/true
// and waiting until it and everything it started are gone, directly and supervised.
func BenchmarkSpawn(b *testing.B) {
	for _, c := range []struct {
		name  string
		start func(ProcessSpec) (*Process, error)
	}{
		{"direct", startDirect},
		{"supervised", func(s ProcessSpec) (*Process, error) { return startSupervised(context.Background(), s) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				p, err := c.start(ProcessSpec{Command: "true", Grace: DefaultGrace})
				if err != nil {
					b.Fatal(err)
				}
				<-p.Done()
			}
		})
	}
}
