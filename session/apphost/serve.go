package apphost

import (
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"
)

//go:embed host.html
var hostPage string

//go:embed sandbox.html
var sandboxPage string

// cookieName is the host page's cookie. Host-only on a name no other site has, so the
// name itself need not be unique.
const cookieName = "mcpscope_host"

// forbidden refuses a request that has not shown what it needs.
func forbidden(w http.ResponseWriter) {
	http.Error(w, "forbidden: open the address mcpscope printed (it opens the page once)", http.StatusForbidden)
}

// hostAuthorized checks the Host header (a page of another site cannot reach these servers
// by DNS rebinding: its Host header names that site) and the page's cookie.
func (h *Host) hostAuthorized(w http.ResponseWriter, r *http.Request) bool {
	if "http://"+r.Host != h.hostOrigin {
		forbidden(w)
		return false
	}
	if c, err := r.Cookie(cookieName); err == nil && subtle.ConstantTimeCompare([]byte(c.Value), []byte(h.cookie)) == 1 {
		return true
	}
	forbidden(w)
	return false
}

// exchange takes the one-time token of URL on the page's first load: it sets the page's
// cookie and reports true; the token is refused after.
func (h *Host) exchange(w http.ResponseWriter, r *http.Request) bool {
	if "http://"+r.Host != h.hostOrigin || subtle.ConstantTimeCompare([]byte(r.URL.Query().Get("t")), []byte(h.once)) != 1 ||
		!h.onceUsed.CompareAndSwap(false, true) {
		return false
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: h.cookie, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	return true
}

func (h *Host) hostMux() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		if !h.exchange(w, r) && !h.hostAuthorized(w, r) {
			return
		}
		nonce := newNonce()
		w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src 'nonce-"+nonce+"'; "+
			"style-src 'unsafe-inline'; connect-src 'self'; frame-src "+h.sandOrigin+"; base-uri 'none'; form-action 'none'; webrtc 'block'")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		page := fill(hostPage, map[string]string{
			"NONCE":    nonce,
			"CONFIG":   jsString(map[string]any{"sandboxToken": h.sandToken, "sandbox": h.sandOrigin, "maxWidth": ContainerMaxWidth, "maxHeight": ContainerMaxHeight}),
			"TOOL":     htmlEscape(h.tool.Name),
			"RESOURCE": htmlEscape(h.resource.uri),
			"CSP":      htmlEscape(h.Policy()),
			"REFUSED":  h.refusedHTML(),
			"WEBRTC":   htmlEscape(WebRTCNote),
		})
		_, _ = io.WriteString(w, page)
	})
	mux.HandleFunc("POST /post", func(w http.ResponseWriter, r *http.Request) {
		if !h.hostAuthorized(w, r) {
			return
		}
		select {
		case h.posts <- struct{}{}:
			defer func() { <-h.posts }()
		default:
			// Not read: the connection closes after the answer, with what was sent of the body.
			w.Header().Set("Connection", "close")
			http.Error(w, "too many messages at once: the page relays one at a time", http.StatusTooManyRequests)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxMessageBytes))
		if err != nil {
			http.Error(w, "message too large", http.StatusRequestEntityTooLarge)
			return
		}
		h.fromView(body)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /csp", func(w http.ResponseWriter, r *http.Request) {
		if !h.hostAuthorized(w, r) {
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxViolationBytes))
		if err != nil {
			http.Error(w, "report too large", http.StatusRequestEntityTooLarge)
			return
		}
		h.violation(body)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /closed", func(w http.ResponseWriter, r *http.Request) {
		if !h.hostAuthorized(w, r) {
			return
		}
		h.pageClosed(WhyPageLeft)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /events", h.events)
	return mux
}

// events streams the host→view messages to the page (text/event-stream). A message's
// lines are data lines, so its text arrives exactly as recorded.
func (h *Host) events(w http.ResponseWriter, r *http.Request) {
	if !h.hostAuthorized(w, r) {
		return
	}
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	// Counted before the page hears back, so a page that has its answer is counted.
	h.streams.Add(1)
	h.pageBack()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	fl.Flush()
	defer func() {
		h.streams.Add(-1)
		// The stream ends when the page goes away, even without a word from it: the
		// browser exited or was killed. The keep-alive below finds a dead peer too.
		if h.ctx.Err() == nil {
			h.pageClosed(WhyBrowserGone)
		}
	}()
	keep := time.NewTicker(15 * time.Second)
	defer keep.Stop()
	for {
		select {
		case raw := <-h.queue:
			var b bytes.Buffer
			for _, line := range strings.Split(string(raw), "\n") {
				b.WriteString("data: ")
				b.WriteString(strings.TrimSuffix(line, "\r"))
				b.WriteByte('\n')
			}
			b.WriteByte('\n')
			if _, err := w.Write(b.Bytes()); err != nil {
				return
			}
			fl.Flush()
		case <-keep.C:
			if _, err := io.WriteString(w, ": keep-alive\n\n"); err != nil {
				return
			}
			fl.Flush()
		case <-r.Context().Done():
			return
		case <-h.ctx.Done():
			return
		}
	}
}

func (h *Host) sandboxMux() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /sandbox", func(w http.ResponseWriter, r *http.Request) {
		// The sandbox is framed by the host page, another site: a cookie of its own would
		// be a third-party one. Its token is in the host page only, never on a command line.
		if "http://"+r.Host != h.sandOrigin || subtle.ConstantTimeCompare([]byte(r.URL.Query().Get("t")), []byte(h.sandToken)) != 1 {
			forbidden(w)
			return
		}
		// The view is loaded with srcdoc and inherits this policy: the resource's own.
		w.Header().Set("Content-Security-Policy", h.Policy())
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = io.WriteString(w, fill(sandboxPage, map[string]string{"HOST": jsString(h.hostOrigin)}))
	})
	return mux
}

// refusedHTML says, on the host page, which declared sources the policy leaves out.
func (h *Host) refusedHTML() string {
	if len(h.refused) == 0 {
		return ""
	}
	var rs []string
	for _, r := range h.refused {
		rs = append(rs, r.String())
	}
	return `<div id="refused">Left out of the policy: ` + htmlEscape(strings.Join(rs, "; ")) + `</div>`
}

// fill replaces each {{KEY}} of page with vals[KEY] in one pass over page: what a value
// holds is never read again, so a server's string with "{{NONCE}}" in it stays that text.
func fill(page string, vals map[string]string) string {
	pairs := make([]string, 0, 2*len(vals))
	for k, v := range vals {
		pairs = append(pairs, "{{"+k+"}}", v)
	}
	return strings.NewReplacer(pairs...).Replace(page)
}

// jsString is v as JSON that is safe inside a <script> element.
func jsString(v any) string {
	b, _ := json.Marshal(v) // escapes <, > and & as \u003c …
	return string(b)
}

func htmlEscape(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")
	return r.Replace(s)
}

func newNonce() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return base64.StdEncoding.EncodeToString(b[:])
}
