// Command proxyfloor is the floor the HTTP tap is measured against: a plain
// httputil.ReverseProxy to one upstream, flushing as the tap does, the request body read
// whole first as the tap reads it, and nothing else.
// Usage: proxyfloor UPSTREAM-URL; it prints "listening on http://ADDR" on stderr.
package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
)

func main() {
	up, err := url.Parse(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	rp := &httputil.ReverseProxy{FlushInterval: -1, Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(up)
		r.Out.URL.Path = up.Path
	}}
	fmt.Fprintf(os.Stderr, "listening on http://%s\n", ln.Addr())
	// The request body is read whole before it is forwarded, as the tap reads it (to record
	// it); streamed, the upstream connection may close under a large answer.
	fmt.Fprintln(os.Stderr, http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		rp.ServeHTTP(w, r)
	})))
}
