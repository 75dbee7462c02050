package export

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestSenderRetries: 503 with Retry-After is tried again after it; 400 is an error at once
// that quotes the receiver's text.
func TestSenderRetries(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch n := calls.Add(1); {
		case r.URL.Path == "/bad":
			http.Error(w, "no such tenant", http.StatusBadRequest)
		case n == 1:
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	s, err := newSender(OTLPOptions{Endpoint: srv.URL + "/v1/traces"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.send(context.Background(), []byte{}); err != nil || calls.Load() != 2 {
		t.Errorf("send after a 503: %v, %d requests, want success on the second", err, calls.Load())
	}
	calls.Store(0)
	s.url = srv.URL + "/bad"
	if err := s.send(context.Background(), []byte{}); err == nil || !strings.Contains(err.Error(), "400 Bad Request: no such tenant") || calls.Load() != 1 {
		t.Errorf("send to a 400: %v after %d requests", err, calls.Load())
	}
}

// TestTracesURL reads the endpoint as the OpenTelemetry exporters do.
func TestTracesURL(t *testing.T) {
	for _, tc := range []struct{ flag, traces, base, want string }{
		{"", "", "", DefaultEndpoint},
		{"http://a:4318/custom", "http://b/x", "http://c", "http://a:4318/custom"},
		{"", "http://b:4318/x", "http://c", "http://b:4318/x"},
		{"", "", "http://c:4318", "http://c:4318/v1/traces"},
		{"", "", "https://c/otlp/", "https://c/otlp/v1/traces"},
	} {
		t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", tc.traces)
		t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", tc.base)
		if got, err := tracesURL(tc.flag); err != nil || got != tc.want {
			t.Errorf("tracesURL(%q) with %q, %q = %q, %v; want %q", tc.flag, tc.traces, tc.base, got, err, tc.want)
		}
	}
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	if _, err := tracesURL("localhost:4318"); err == nil {
		t.Error("an endpoint without a scheme was taken")
	}
}
