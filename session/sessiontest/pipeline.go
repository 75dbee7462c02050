package sessiontest

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/mcpscope/mcpscope/session"
)

// Pipeline calls method with params n times through s, with at most window calls in
// flight, and returns the first error. The round-trip benchmarks use it so that they
// measure the same load.
func Pipeline(ctx context.Context, s *session.Session, n, window int, method string, params json.RawMessage) error {
	sem := make(chan struct{}, window)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed error
	for i := 0; i < n; i++ {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if _, err := s.Call(ctx, method, params); err != nil {
				mu.Lock()
				failed = err
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return failed
}
