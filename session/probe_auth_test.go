package session_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/demo"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// TestProbeUnauthorizedNoFallback: a 401 to the server/discover probe says nothing about
// the server's era. The connect fails with it, and initialize is not tried (it would meet
// the same refusal and the error would blame it).
func TestProbeUnauthorizedNoFallback(t *testing.T) {
	url := sessiontest.StartDemoAuthHTTP(t, demo.AuthOptions{})
	s := session.New(session.Config{Protocol: "auto", Transport: transport.NewStreamableHTTP(transport.HTTPOptions{URL: url})})
	rec := sessiontest.Record(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := s.Connect(ctx)
	var hs *transport.HTTPStatusError
	if !errors.As(err, &hs) || hs.Status != http.StatusUnauthorized {
		t.Fatalf("connect: %v, want the probe's 401\n%s", err, rec.Timeline())
	}
	if n := len(rec.FindAll(sessiontest.Sent("initialize"))); n != 0 {
		t.Fatalf("initialize was sent %d times after the probe's 401\n%s", n, rec.Timeline())
	}
}
