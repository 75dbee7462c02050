package recordings

import (
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// GuardHost refuses what a web page in the user's browser could send the HTTP tap (or
// serve --http) through DNS rebinding or a cross-site request: a Host header that does not name the listener
// (its own address, or a loopback name with its port), and an Origin of another site. The
// tap would otherwise rewrite such a request's Host to the upstream's and so defeat the
// upstream's own check. With remote set (--allow-remote), other hosts reach the tap under
// names it cannot know, so any Host is taken; the Origin check stays.
func GuardHost(listen net.Addr, remote bool, next http.Handler) http.Handler {
	port := ""
	if tcp, ok := listen.(*net.TCPAddr); ok {
		port = strconv.Itoa(tcp.Port)
	}
	self := listen.String()
	allowed := func(host string) bool {
		if host == self {
			return true
		}
		h, p, err := net.SplitHostPort(host)
		if err != nil || p != port {
			return false
		}
		if strings.EqualFold(h, "localhost") {
			return true
		}
		ip := net.ParseIP(h)
		return ip != nil && ip.IsLoopback()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !remote && !allowed(r.Host) {
			http.Error(w, "mcpscope: forbidden: Host "+strconv.Quote(r.Host)+" does not name this address (a page of another site cannot reach it)", http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" {
			u, err := url.Parse(o)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host != r.Host || (!remote && !allowed(u.Host)) {
				http.Error(w, "mcpscope: forbidden: a request from the page at "+strconv.Quote(o)+" (cross-site Origin)", http.StatusForbidden)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// IsLoopbackListen reports whether addr (HOST:PORT, as given to --listen) names a loopback
// address: 127.0.0.0/8, ::1 or localhost. An empty host (":8080") listens everywhere.
func IsLoopbackListen(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
