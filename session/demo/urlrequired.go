package demo

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"html"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// url_required shows the 2025-11-25 URLElicitationRequiredError: the tool answers error
// -32042 with a URL-mode elicitation in error.data until the page it names has been
// visited. The demo serves that page itself, on 127.0.0.1, started with the first call;
// opening it marks the session connected and sends notifications/elicitation/complete,
// after which the same call succeeds. The 2026-07-28 revision has neither the error nor
// the notification (URL elicitation travels in input_required results there, see ask_url).

// connectPages is the state of url_required: the page server and which sessions wait for,
// or have, a connection.
type connectPages struct {
	mu        sync.Mutex
	base      string                        // http://127.0.0.1:PORT once serving
	pending   map[string]*mcp.ServerSession // elicitation id → the session that waits
	connected map[*mcp.ServerSession]bool   // sessions whose page was visited
	notify    func(*mcp.ServerSession, string) error
}

// urlRequiredRevision is the revision of error -32042, which the tool's error in a later
// revision names as the way to see it.
const urlRequiredRevision = "2025-11-25"

// urlRequiredTool is the tool's definition.
func (d *demo) urlRequiredTool() toolDef {
	return toolDef{name: "url_required", title: "Needs a page visited (error -32042)",
		description: "Answers error -32042 (URL elicitation required) with a page to open until that page, served by the demo on 127.0.0.1, has been visited; the demo then sends notifications/elicitation/complete and a retry succeeds.",
		input:       schemaEmpty, annotations: readOnly, fn: d.urlRequired}
}

func (d *demo) urlRequired(_ context.Context, req *mcp.CallToolRequest, _ json.RawMessage) (*mcp.CallToolResult, error) {
	if req.ProtocolVersion() >= "2026-07-28" {
		return errorResult("Error -32042 and notifications/elicitation/complete are not part of %s: there URL elicitation travels in input_required results (try ask_url). "+
			"To see the -32042 flow, use %s: in mcpscope press P on the server page to restart in it, or start with --protocol %s.",
			req.ProtocolVersion(), urlRequiredRevision, urlRequiredRevision), nil
	}
	if caps := req.ClientCapabilities(); caps == nil || caps.Elicitation == nil || caps.Elicitation.URL == nil {
		return errorResult("The client did not declare URL-mode elicitation (capabilities.elicitation.url), so the server cannot ask."), nil
	}
	p := &d.pages
	p.mu.Lock()
	done := p.connected[req.Session]
	p.mu.Unlock()
	if done {
		return textResult("Connected: the page was visited, so the (pretend) service is linked to this session."), nil
	}
	base, err := p.serve(d)
	if err != nil {
		return errorResult("The demo cannot serve the page to visit: %v", err), nil
	}
	id := "connect-" + strings.ToLower(rand.Text()[:10])
	p.mu.Lock()
	if p.pending == nil {
		p.pending = map[string]*mcp.ServerSession{}
	}
	p.pending[id] = req.Session
	p.mu.Unlock()
	d.log.printf("url_required: the client must visit %s/connect?elicitation=%s", base, id)
	return nil, mcp.URLElicitationRequiredError([]*mcp.ElicitParams{{
		Mode:          "url",
		Message:       "Open this page to link the demo server to a (pretend) service; the call works once it has been visited.",
		URL:           base + "/connect?elicitation=" + id,
		ElicitationID: id,
	}})
}

// serve starts the page server the first time and returns its base URL.
func (p *connectPages) serve(d *demo) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.base != "" {
		return p.base, nil
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	if p.notify == nil {
		p.notify = func(ss *mcp.ServerSession, id string) error {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			return ss.NotifyElicitationComplete(ctx, &mcp.ElicitationCompleteParams{ElicitationID: id})
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/connect", func(w http.ResponseWriter, r *http.Request) { p.visit(d, w, r) })
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln) // lives as long as the demo server's process
	p.base = "http://" + ln.Addr().String()
	return p.base, nil
}

// visit is the page: it completes the elicitation it names and tells the session.
func (p *connectPages) visit(d *demo, w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("elicitation")
	p.mu.Lock()
	ss := p.pending[id]
	if ss != nil {
		delete(p.pending, id)
		if p.connected == nil {
			p.connected = map[*mcp.ServerSession]bool{}
		}
		p.connected[ss] = true
	}
	p.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if ss == nil {
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, "<p>No pending elicitation %s: it was completed already or never asked.</p>\n", html.EscapeString(id))
		return
	}
	d.log.printf("url_required: page visited; sending notifications/elicitation/complete for %s", id)
	if err := p.notify(ss, id); err != nil {
		d.log.printf("url_required: notifications/elicitation/complete: %v", err)
	}
	fmt.Fprintf(w, "<p>Connected (elicitation %s). Return to the MCP client: it may retry the call now.</p>\n", html.EscapeString(id))
}
