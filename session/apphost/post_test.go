package apphost_test

import (
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session/apphost"
)

// TestPostBounded: /post reads at most MaxConcurrentPosts messages at once (so at most that
// many times MaxMessageBytes in memory); a post beyond is answered 429 at once, without
// its body being read, and the ones held go through when their bodies end.
func TestPostBounded(t *testing.T) {
	h, _ := hostileApp{name: "posts", uri: "ui://posts/app"}.start(t, apphost.Config{})
	p := openPage(t, h)
	const n = 16
	type result struct {
		code int
		err  error
	}
	results := make(chan result, n)
	var writers []*io.PipeWriter
	var wg sync.WaitGroup
	for range n {
		r, w := io.Pipe()
		writers = append(writers, w)
		req, err := http.NewRequest(http.MethodPost, p.base+"/post", r)
		if err != nil {
			t.Fatal(err)
		}
		req.ContentLength = apphost.MaxMessageBytes // announced, and held open
		wg.Go(func() {
			resp, err := p.c.Do(req)
			if err != nil {
				results <- result{err: err}
				return
			}
			_ = resp.Body.Close()
			results <- result{code: resp.StatusCode}
		})
	}
	t.Cleanup(func() {
		for _, w := range writers {
			_ = w.Close()
		}
		wg.Wait()
	})
	deadline := time.After(20 * time.Second)
	for refused := 0; refused < n-apphost.MaxConcurrentPosts; {
		select {
		case r := <-results:
			if r.err != nil || r.code != http.StatusTooManyRequests {
				t.Fatalf("a post beyond the bound: %d %v, want 429", r.code, r.err)
			}
			refused++
		case <-deadline:
			t.Fatalf("%d posts held open at once: %d answered 429, want %d", n, refused, n-apphost.MaxConcurrentPosts)
		}
	}
	select {
	case r := <-results:
		t.Fatalf("a post within the bound was answered before its body ended: %d %v", r.code, r.err)
	case <-time.After(200 * time.Millisecond):
	}
	// The held posts end their bodies (a message cut short: 413, as a body that breaks off).
	for _, w := range writers {
		_ = w.CloseWithError(io.ErrUnexpectedEOF)
	}
	for range apphost.MaxConcurrentPosts {
		<-results
	}
	// The bound is free again: the page's next message goes through.
	if code := p.post(`{"jsonrpc":"2.0","method":"ui/notifications/size-changed","params":{"width":1,"height":1}}`); code != http.StatusNoContent {
		t.Errorf("a post after the held ones ended: %d, want 204", code)
	}
}
