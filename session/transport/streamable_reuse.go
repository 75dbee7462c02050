package transport

import (
	"context"
	"sync"
	"time"
)

// reuseWait bounds how long a message waits for a connection about to be free before it
// opens another (see settling).
const reuseWait = 200 * time.Millisecond

// settling counts the HTTP exchanges that owe the session nothing more but still hold a
// connection: a notification's POST until its 202 comes back, and a request's SSE stream
// after its response event, until the server ends it. Over HTTP/1.1 a connection carries
// one exchange at a time, so a POST sent while one of them is finishing opens a new
// connection (a TCP and TLS handshake more, on a remote server, than the round trip it
// saves) and may reach the server before the message sent first. A POST, and the DELETE at
// Close, wait for them instead and take the connection they free, but never past
// reuseWait after the latest of them began: a server that keeps a stream open after its
// response, or never answers a notification, delays the next message once, by at most
// that, and no later one. An HTTP/2 connection carries exchanges side by side: nothing
// waits.
type settling struct {
	mu          sync.Mutex
	n           int
	idle        chan struct{} // closed when n falls to 0
	until       time.Time     // no wait goes past it: reuseWait after the latest begin
	multiplexed bool          // the server answered over HTTP/2 or later
	bounded     int           // waits that ended at the bound, not because a connection came free
}

// begin counts one finishing exchange; the returned function (safe to call more than once)
// ends it.
func (g *settling) begin() func() {
	g.mu.Lock()
	if g.n == 0 {
		g.idle = make(chan struct{})
	}
	g.n++
	g.until = time.Now().Add(reuseWait)
	g.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			if g.n--; g.n == 0 {
				close(g.idle)
			}
			g.mu.Unlock()
		})
	}
}

// answeredOver records the HTTP version of an answer.
func (g *settling) answeredOver(protoMajor int) {
	g.mu.Lock()
	g.multiplexed = protoMajor >= 2
	g.mu.Unlock()
}

// wait returns when no exchange is finishing, at the bound (until), or when ctx ends.
func (g *settling) wait(ctx context.Context) {
	g.mu.Lock()
	idle, n, multiplexed, left := g.idle, g.n, g.multiplexed, time.Until(g.until)
	g.mu.Unlock()
	if n == 0 || multiplexed || left <= 0 {
		return
	}
	t := time.NewTimer(left)
	defer t.Stop()
	select {
	case <-idle:
	case <-t.C:
		g.mu.Lock()
		g.bounded++
		g.mu.Unlock()
	case <-ctx.Done():
	}
}
