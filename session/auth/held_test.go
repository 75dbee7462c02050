package auth

import (
	"context"
	"errors"
	"net/http"
	"testing"
)

// TestCancelWaitHolds: once the user stops a wait for the browser, a server that asks
// again gets ErrHeld at once (no new wait, no browser), for 401 and for 403 step-up,
// until Login.
func TestCancelWaitHolds(t *testing.T) {
	f := New(Options{ServerURL: "http://127.0.0.1:1/mcp"})
	stopped := false
	f.mu.Lock()
	f.cancelW = func() { stopped = true }
	f.mu.Unlock()
	f.CancelWait()
	if !stopped {
		t.Fatal("CancelWait did not end the wait")
	}
	f.mu.Lock()
	f.cancelW = nil
	f.mu.Unlock()

	resp401 := &http.Response{StatusCode: http.StatusUnauthorized, Header: http.Header{"Www-Authenticate": {`Bearer resource_metadata="http://127.0.0.1:1/.well-known/oauth-protected-resource/mcp"`}}}
	retry, err := f.Unauthorized(context.Background(), resp401)
	if retry || !errors.Is(err, ErrHeld) {
		t.Fatalf("401 after a stop: retry %v, err %v; want ErrHeld", retry, err)
	}
	var ae *Error
	if !errors.As(err, &ae) {
		t.Errorf("ErrHeld is not an authorization failure (*Error): %T", err)
	}
	resp403 := &http.Response{StatusCode: http.StatusForbidden, Header: http.Header{"Www-Authenticate": {`Bearer error="insufficient_scope", scope="more"`}}}
	if retry, err := f.Forbidden(context.Background(), resp403); retry || !errors.Is(err, ErrHeld) {
		t.Fatalf("403 after a stop: retry %v, err %v; want ErrHeld", retry, err)
	}

	// Login lifts the hold: it tries for real (and fails here: nothing listens).
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := f.Login(ctx); errors.Is(err, ErrHeld) {
		t.Fatalf("Login still held: %v", err)
	}
	if err := f.heldErr(); err != nil {
		t.Fatalf("after Login the hold remains: %v", err)
	}
}
