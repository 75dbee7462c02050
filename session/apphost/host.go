package apphost

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/apps"
	"github.com/mcpscope/mcpscope/session"
)

// MaxMessageBytes bounds one message the page relays from the view.
const MaxMessageBytes = 16 << 20

// MaxHTMLBytes bounds the app's HTML.
const MaxHTMLBytes = 32 << 20

// queueBound bounds the messages waiting for the page to take them.
const queueBound = 1024

// MaxConcurrentPosts bounds the messages /post reads at once (the page relays one at a
// time; a reload may overlap the old page's last): at most this many times MaxMessageBytes
// in memory. A post beyond it is answered 429.
const MaxConcurrentPosts = 4

// Question is something the app asks that the user must decide.
type Question struct {
	Method string // ui/open-link or ui/message
	Text   string // what to show: the URL, or the message's text
}

// Config is what Start needs.
type Config struct {
	Session *session.Session
	// Tool is the tool's definition as tools/list gave it; Tools is the whole list, to
	// decide the view's own tools/call by visibility.
	Tool  json.RawMessage
	Tools []json.RawMessage
	// Arguments of the call.
	Arguments map[string]any
	// Theme is "light" or "dark" (default light).
	Theme string
	// Ask puts a question to the user; false (or nil Ask) refuses.
	Ask func(ctx context.Context, q Question) bool
	// Notice shows a line to the user (ui/update-model-context, an opened link).
	Notice func(text string)
	// OpenURL opens a link the user accepted; nil refuses every link.
	OpenURL func(url string) error
	// CSP is how the view's policy is built: CSPStrict ("" too) or CSPReference
	// (csp_mode.go).
	CSP string
}

// Host is one hosted app.
type Host struct {
	cfg        Config
	s          *session.Session
	lane       *session.AppLane
	tool       toolInfo
	resource   resource
	csp        *apps.CSP // the resource's declared CSP without the refused sources
	refused    []Refused
	once       string      // the one-time token of URL, exchanged for the cookie on first load
	onceUsed   atomic.Bool // the one-time token was exchanged
	cookie     string      // the host page's cookie value: what every later request needs
	sandToken  string      // the sandbox page's token, given only to the host page
	posts      chan struct{}
	hostLn     net.Listener
	sandLn     net.Listener
	servers    []*http.Server
	hostOrigin string
	sandOrigin string

	// The call the view is shown for.
	callID     json.RawMessage
	callResult json.RawMessage // nil when the call failed
	callErr    string

	mu         sync.Mutex
	queue      chan []byte // host→view messages, in the order they were recorded
	nextID     int64
	waiting    map[string]chan *protocol.Frame    // our requests to the view, by id
	asking     map[string]context.CancelCauseFunc // the view's questions put to the user, by id
	initDone   bool
	violations int // CSP reports the page posted (violation.go)
	closedCh   chan struct{}
	closeOnce  sync.Once
	why        string       // why the page went away; guarded by mu
	goneGen    uint64       // counts the page's goings and comings; guarded by mu
	streams    atomic.Int32 // event streams the page has open
	ctx        context.Context
	cancel     context.CancelFunc
}

type toolInfo struct {
	Name string `json:"name"`
	link apps.ToolLink
	raw  json.RawMessage
}

// metaJSON is the _meta member of obj as JSON; nil when there is none.
func metaJSON(obj json.RawMessage) json.RawMessage {
	m := protocol.MetaOf(obj)
	if m == nil {
		return nil
	}
	b, _ := json.Marshal(m)
	return b
}

// ToolLink reads a tool definition's link to its app (_meta.ui).
func ToolLink(tool json.RawMessage) apps.ToolLink {
	l, _ := apps.ToolLinkOf(metaJSON(tool))
	return l
}

type resource struct {
	uri         string
	html        string
	meta        apps.ResourceMeta
	permissions json.RawMessage
}

// ErrAppOnly is returned by Start for a tool whose visibility leaves out "model": the
// model side (this command, as an agent would) may not call it.
var ErrAppOnly = errors.New("the tool is app-only (visibility without \"model\"): only an app may call it")

// ErrNoApp is returned by Start for a tool that names no ui:// resource.
var ErrNoApp = errors.New("the tool has no app (_meta.ui.resourceUri)")

// Start calls the tool, reads its app and starts serving the host page and the sandbox.
// The caller must Close the host.
func Start(ctx context.Context, cfg Config) (*Host, error) {
	if err := checkCSPMode(cfg.CSP); err != nil {
		return nil, err
	}
	var t toolInfo
	if err := json.Unmarshal(cfg.Tool, &t); err != nil {
		return nil, fmt.Errorf("tool definition: %w", err)
	}
	t.raw = cfg.Tool
	t.link = ToolLink(cfg.Tool)
	if !t.link.HasApp() {
		return nil, fmt.Errorf("%s: %w", t.Name, ErrNoApp)
	}
	if !t.link.ModelVisible() {
		return nil, fmt.Errorf("%s: %w", t.Name, ErrAppOnly)
	}
	res, err := readResource(ctx, cfg.Session, t.link.ResourceURI)
	if err != nil {
		return nil, err
	}
	h := &Host{cfg: cfg, s: cfg.Session, tool: t, resource: res, queue: make(chan []byte, queueBound),
		waiting: map[string]chan *protocol.Frame{}, closedCh: make(chan struct{})}
	h.csp, h.refused = CheckCSP(res.meta.CSP)
	h.ctx, h.cancel = context.WithCancel(context.Background())
	h.once, h.cookie, h.sandToken = randomHex(16), randomHex(32), randomHex(16)
	h.posts = make(chan struct{}, MaxConcurrentPosts)

	args := cfg.Arguments
	if args == nil {
		args = map[string]any{}
	}
	resp, err := cfg.Session.Call(ctx, "tools/call", map[string]any{"name": t.Name, "arguments": args}, session.WithProgress())
	if resp != nil && resp.Request != nil && resp.Request.Frame != nil {
		h.callID = resp.Request.Frame.ID.Raw
	}
	switch {
	case err == nil:
		h.callResult = resp.Result
	case ctx.Err() != nil:
		return nil, err
	default:
		h.callErr = err.Error()
	}
	h.lane = cfg.Session.AppLane()
	if err := h.listen(); err != nil {
		return nil, err
	}
	return h, nil
}

// readResource reads the app's HTML and metadata.
func readResource(ctx context.Context, s *session.Session, uri string) (resource, error) {
	r := resource{uri: uri}
	resp, err := s.Call(ctx, "resources/read", map[string]any{"uri": uri})
	if err != nil {
		return r, fmt.Errorf("read the app %s: %w", uri, err)
	}
	var out struct {
		Contents []json.RawMessage `json:"contents"`
	}
	if err := json.Unmarshal(resp.Result, &out); err != nil {
		return r, fmt.Errorf("read the app %s: %w", uri, err)
	}
	if len(out.Contents) == 0 {
		return r, fmt.Errorf("read the app %s: no contents", uri)
	}
	var c struct {
		Text *string         `json:"text"`
		Blob *[]byte         `json:"blob"`
		Meta json.RawMessage `json:"-"`
	}
	if err := json.Unmarshal(out.Contents[0], &c); err != nil {
		return r, fmt.Errorf("read the app %s: %w", uri, err)
	}
	c.Meta = metaJSON(out.Contents[0])
	switch {
	case c.Text != nil:
		r.html = *c.Text
	case c.Blob != nil:
		r.html = string(*c.Blob)
	default:
		return r, fmt.Errorf("read the app %s: the content has neither text nor blob", uri)
	}
	if len(r.html) > MaxHTMLBytes {
		return r, fmt.Errorf("read the app %s: %d bytes of HTML, over the %d MiB bound", uri, len(r.html), MaxHTMLBytes>>20)
	}
	meta, _, err := apps.ResourceMetaOf(c.Meta)
	if err != nil {
		return r, fmt.Errorf("read the app %s: _meta.ui: %w", uri, err)
	}
	r.meta = meta
	var p struct {
		UI struct {
			Permissions json.RawMessage `json:"permissions"`
		} `json:"ui"`
	}
	if json.Unmarshal(c.Meta, &p) == nil {
		r.permissions = p.UI.Permissions
	}
	return r, nil
}

// randomHex is n random bytes in hex (crypto/rand never fails).
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// listen opens the two origins: each a port of 127.0.0.1 under a random name of .localhost
// that nothing else on the machine uses, so each is a site of its own (cookies ignore ports;
// host names they do not). Browsers resolve every name under .localhost to loopback
// (RFC 6761).
func (h *Host) listen() error {
	var err error
	if h.hostLn, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		return fmt.Errorf("listen for the host page: %w", err)
	}
	if h.sandLn, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		_ = h.hostLn.Close()
		return fmt.Errorf("listen for the sandbox: %w", err)
	}
	port := func(ln net.Listener) string { return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port) }
	h.hostOrigin = "http://host-" + randomHex(8) + ".localhost:" + port(h.hostLn)
	h.sandOrigin = "http://sandbox-" + randomHex(8) + ".localhost:" + port(h.sandLn)
	for ln, handler := range map[net.Listener]http.Handler{h.hostLn: h.hostMux(), h.sandLn: h.sandboxMux()} {
		srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
		h.servers = append(h.servers, srv)
		go func() { _ = srv.Serve(ln) }()
	}
	return nil
}

// URL is the host page's address, with its one-time token: the first load exchanges it for
// the page's cookie (HttpOnly, SameSite=Strict, this name only), and it opens nothing after.
// So the address a browser is started with, which other local users can read in the list
// of processes, is spent by the time they could use it.
func (h *Host) URL() string { return h.hostOrigin + "/?t=" + h.once }

// Announce publishes the page's address on the app lane (session.NoteAppHosted): a row of
// the timeline that keeps it, for a browser that did not start or a page opened again.
func (h *Host) Announce() { h.lane.Hosted(h.tool.Name, h.URL()) }

// SandboxOrigin is the sandbox proxy's origin (another port of 127.0.0.1, under a name of
// its own).
func (h *Host) SandboxOrigin() string { return h.sandOrigin }

// Policy is the Content-Security-Policy the view runs under: the resource's declaration
// without the refused sources (the spec's restrictive default when it declares none), no
// plugins, and WebRTC blocked where the browser knows the directive (CSP Level 3's
// webrtc; a browser that does not ignores it, and WebRTC is then not governed by CSP).
func (h *Host) Policy() string {
	if h.cfg.CSP == CSPReference {
		return ReferencePolicy(h.csp) + "; webrtc 'block'"
	}
	return h.csp.Policy() + "; object-src 'none'; webrtc 'block'"
}

// Refused are the sources of the resource's declared CSP that Policy leaves out.
func (h *Host) Refused() []Refused { return h.refused }

// Closed is closed when the browser page went away.
func (h *Host) Closed() <-chan struct{} { return h.closedCh }

// Close tears the view down (ui/resource-teardown, waiting at most wait for its answer
// when the view was initialized) and stops serving.
func (h *Host) Close(wait time.Duration) {
	h.mu.Lock()
	init := h.initDone
	h.mu.Unlock()
	select {
	case <-h.closedCh:
		init = false
	default:
	}
	if init && wait > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		_, _ = h.request(ctx, apps.MethodResourceTeardown, map[string]any{"reason": "the host is closing"})
		cancel()
	}
	h.cancel()
	for _, srv := range h.servers {
		_ = srv.Close()
	}
}

// reloadGrace is how long a page that went away has to come back (a reload connects the
// event stream again) before the host counts it closed.
const reloadGrace = 2 * time.Second

// Why the host counts the page closed (Why's texts).
const (
	WhyPageLeft    = "the page was left and not reloaded within 2s"
	WhyBrowserGone = "the browser's connection to the page closed and no page came back within 2s"
)

// pageClosed is a sign that the page is going away: its word (the pagehide beacon) or its
// event stream closing (the browser exited or was killed). Unless a page is connected
// again within reloadGrace, the host is closed, saying why on the app lane. A page that
// connects meanwhile (pageBack) voids the sign: so with reloads less than reloadGrace
// apart, the grace of an earlier one cannot end while a later page is on its way back.
func (h *Host) pageClosed(why string) {
	h.mu.Lock()
	h.goneGen++
	gen := h.goneGen
	h.mu.Unlock()
	time.AfterFunc(reloadGrace, func() {
		h.mu.Lock()
		void := gen != h.goneGen
		h.mu.Unlock()
		if void || h.streams.Load() != 0 || h.ctx.Err() != nil {
			return
		}
		h.closeOnce.Do(func() {
			h.mu.Lock()
			h.why = why
			h.mu.Unlock()
			h.lane.Ended(h.tool.Name + ": " + why)
			close(h.closedCh)
		})
	})
}

// pageBack is a page connecting its event stream: every earlier sign of the page going
// is void.
func (h *Host) pageBack() {
	h.mu.Lock()
	h.goneGen++
	h.mu.Unlock()
}

// Why says why the page counts as closed; "" while it is open.
func (h *Host) Why() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.why
}
