package export

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/session/secret"
)

// OTLP/HTTP (the OTLP specification's "OTLP/HTTP" section): each batch is one POST of a
// protobuf-encoded ExportTraceServiceRequest, Content-Type application/x-protobuf, to the
// traces URL. A 2xx answer is success; 429, 502, 503 and 504 are retried with backoff (the
// server's Retry-After first), for at most a minute; any other answer is an error. The
// exporter's environment variables are read as the OpenTelemetry exporters read them.

// otlpSender posts batches to one OTLP/HTTP traces URL.
type otlpSender struct {
	url     string
	header  http.Header
	gzip    bool
	timeout time.Duration
	client  *http.Client
}

// otlpEnv is the first non-empty of the signal's variable and the general one.
func otlpEnv(name string) string {
	if v := os.Getenv("OTEL_EXPORTER_OTLP_TRACES_" + name); v != "" {
		return v
	}
	return os.Getenv("OTEL_EXPORTER_OTLP_" + name)
}

// tracesURL is where spans go: endpoint (a full traces URL), else
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (a full URL), else OTEL_EXPORTER_OTLP_ENDPOINT with
// /v1/traces appended to its path, else DefaultEndpoint.
func tracesURL(endpoint string) (string, error) {
	raw, base := endpoint, false
	if raw == "" {
		raw = os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
	}
	if raw == "" {
		raw, base = os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT"), true
	}
	if raw == "" {
		return DefaultEndpoint, nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("OTLP endpoint %q: want an http:// or https:// URL", secret.URL(raw))
	}
	if base {
		u.Path = strings.TrimSuffix(u.Path, "/") + "/v1/traces"
	}
	return u.String(), nil
}

// newSender reads the endpoint, headers (OTEL_EXPORTER_OTLP_HEADERS: key=value pairs,
// comma-separated, values URL-encoded), compression (gzip or none), timeout (ms, default
// 10 s) and TLS files (CERTIFICATE, CLIENT_CERTIFICATE, CLIENT_KEY).
func newSender(o OTLPOptions) (*otlpSender, error) {
	u, err := tracesURL(o.Endpoint)
	if err != nil {
		return nil, err
	}
	s := &otlpSender{url: u, header: http.Header{}, timeout: 10 * time.Second}
	for _, pair := range strings.Split(otlpEnv("HEADERS"), ",") {
		k, v, ok := strings.Cut(pair, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			continue
		}
		if dv, err := url.PathUnescape(strings.TrimSpace(v)); err == nil {
			s.header.Set(k, dv)
		}
	}
	switch c := otlpEnv("COMPRESSION"); c {
	case "gzip":
		s.gzip = true
	case "", "none":
	default:
		return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_COMPRESSION %q: want gzip or none", c)
	}
	if t := otlpEnv("TIMEOUT"); t != "" {
		ms, err := strconv.Atoi(t)
		if err != nil || ms <= 0 {
			return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_TIMEOUT %q: want milliseconds", t)
		}
		s.timeout = time.Duration(ms) * time.Millisecond
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if tr.TLSClientConfig, err = otlpTLS(); err != nil {
		return nil, err
	}
	s.client = &http.Client{Transport: tr}
	return s, nil
}

// otlpTLS is the TLS configuration the environment asks for, or nil.
func otlpTLS() (*tls.Config, error) {
	ca, cert, key := otlpEnv("CERTIFICATE"), otlpEnv("CLIENT_CERTIFICATE"), otlpEnv("CLIENT_KEY")
	if ca == "" && cert == "" && key == "" {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if ca != "" {
		pem, err := os.ReadFile(ca)
		if err != nil {
			return nil, fmt.Errorf("OTLP certificate: %w", err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("OTLP certificate %s: no PEM certificate in it", ca)
		}
	}
	if cert != "" || key != "" {
		c, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("OTLP client certificate: %w", err)
		}
		cfg.Certificates = []tls.Certificate{c}
	}
	return cfg, nil
}

// maxRetryElapsed bounds the retries of one batch; a retry waits from 5 s up to 30 s.
const maxRetryElapsed = time.Minute

// send posts one protobuf body, retrying as the specification allows, within ctx.
func (s *otlpSender) send(ctx context.Context, body []byte) error {
	if s.gzip {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		_, _ = zw.Write(body)
		_ = zw.Close()
		body = buf.Bytes()
	}
	deadline := time.Now().Add(maxRetryElapsed)
	wait := 5 * time.Second
	for {
		retryAfter, err := s.post(ctx, body)
		if err == nil || retryAfter < 0 {
			return err
		}
		if retryAfter == 0 {
			retryAfter = wait
			wait = min(2*wait, 30*time.Second)
		}
		if time.Now().Add(retryAfter).After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(retryAfter):
		}
	}
}

// post makes one request. A retryable failure has retryAfter ≥ 0 (0: no hint from the
// server); any other has -1.
func (s *otlpSender) post(ctx context.Context, body []byte) (retryAfter time.Duration, err error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		return -1, fmt.Errorf("OTLP export: %w", err)
	}
	for k, v := range s.header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	if s.gzip {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return -1, fmt.Errorf("OTLP export to %s: %w", secret.URL(s.url), errors.Unwrap(err))
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 == 2 {
		return 0, nil
	}
	err = fmt.Errorf("OTLP export to %s: %s", secret.URL(s.url), resp.Status)
	if text := strings.TrimSpace(strings.ToValidUTF8(string(msg), "?")); text != "" && !strings.Contains(resp.Header.Get("Content-Type"), "protobuf") {
		err = fmt.Errorf("%w: %.200s", err, text)
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		if n, perr := strconv.Atoi(resp.Header.Get("Retry-After")); perr == nil && n > 0 {
			return time.Duration(n) * time.Second, err
		}
		return 0, err
	}
	return -1, err
}
