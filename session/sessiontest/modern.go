package sessiontest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
)

// ModernServer is a small 2026-07-28 Streamable HTTP server on loopback for tests of
// features the demo server does not have (SEP-2243 annotations, the Skills extension): it
// answers server/discover itself, with the capabilities it was given, and every other
// request with its handler's result, or error -32601 when the handler returns nil. It
// remembers the headers of every request, by method. A handler answers an error by
// returning an RPCError.
type ModernServer struct {
	URL     string
	mu      sync.Mutex
	headers map[string][]http.Header
}

// StartModernServer starts a ModernServer that lives until the test ends.
func StartModernServer(t testing.TB, caps string, handle func(method string, params json.RawMessage) any) *ModernServer {
	t.Helper()
	ms := &ModernServer{headers: map[string][]http.Header{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		ms.mu.Lock()
		ms.headers[req.Method] = append(ms.headers[req.Method], r.Header.Clone())
		ms.mu.Unlock()
		if req.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		var result any
		if req.Method == "server/discover" {
			result = map[string]any{"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
				"supportedVersions": []string{"2026-07-28"}, "capabilities": json.RawMessage(caps),
				"_meta": map[string]any{protocol.MetaServerInfo: map[string]string{"name": "modern", "version": "1"}}}
		} else {
			result = handle(req.Method, req.Params)
		}
		out := map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result}
		status := http.StatusOK
		switch e := result.(type) {
		case nil:
			out = map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "no " + req.Method}}
		case RPCError:
			out = map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": e.Code, "message": e.Message}}
			status = e.Status
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(max(status, http.StatusOK))
		_ = json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(srv.Close)
	ms.URL = srv.URL
	return ms
}

// RPCError is a handler's answer that ModernServer sends as a JSON-RPC error, with HTTP
// status Status (200 when 0).
type RPCError struct {
	Code    int
	Message string
	Status  int
}

// Requests returns the headers of every request of method so far.
func (ms *ModernServer) Requests(method string) []http.Header {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return append([]http.Header(nil), ms.headers[method]...)
}

// The skill StartSkillsServer serves: a SKILL.md and one supporting file.
const (
	SkillURI  = "skill://acme/pdf-processing/SKILL.md"
	FormsURI  = "skill://acme/pdf-processing/references/FORMS.md"
	SkillText = "---\nname: pdf-processing\ndescription: Extract PDF text\nmetadata:\n  version: 2\n---\n\nUse references/FORMS.md.\n"
	FormsText = "Forms.\n"
)

// StartSkillsServer serves the Skills extension with one skill whose entry describes
// SkillText while resources/read answers its SKILL.md with skillBody (SkillText, or a
// tampered copy).
func StartSkillsServer(t testing.TB, skillBody string) *ModernServer {
	t.Helper()
	entry := json.RawMessage(fmt.Sprintf(`{"uri":%q,"frontmatter":{"name":"pdf-processing","description":"Extract PDF text","metadata":{"version":2}},
	  "resources":[{"uri":%q,"digest":%q,"size":%d},{"uri":%q,"digest":%q,"size":%d}]}`,
		SkillURI, SkillURI, digest(SkillText), len(SkillText), FormsURI, digest(FormsText), len(FormsText)))
	caps := `{"resources":{},"extensions":{"io.modelcontextprotocol/skills":{}}}`
	return StartModernServer(t, caps, func(method string, params json.RawMessage) any {
		var p struct {
			URI string `json:"uri"`
		}
		_ = json.Unmarshal(params, &p)
		switch method {
		case "skills/list":
			return map[string]any{"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "skills": []any{entry}}
		case "skills/get":
			return map[string]any{"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "skill": entry}
		case "resources/list":
			return map[string]any{"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "resources": []any{}}
		case "resources/read":
			text := FormsText
			if p.URI == SkillURI {
				text = skillBody
			}
			return map[string]any{"resultType": "complete", "contents": []any{map[string]string{"uri": p.URI, "mimeType": "text/markdown", "text": text}}}
		}
		return nil
	})
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// HeaderTools are tools annotated with x-mcp-header (2026-07-28): execute_sql mirrors
// four parameters; bad_number annotates a number, so a Streamable HTTP client excludes it.
const HeaderTools = `[
 {"name":"execute_sql","inputSchema":{"type":"object","properties":{
   "region":{"type":"string","x-mcp-header":"Region"},
   "priority":{"type":"integer","x-mcp-header":"Priority"},
   "verbose":{"type":"boolean","x-mcp-header":"Verbose"},
   "greeting":{"type":"string","x-mcp-header":"Greeting"},
   "query":{"type":"string"}}}},
 {"name":"bad_number","inputSchema":{"type":"object","properties":{"score":{"type":"number","x-mcp-header":"Score"}}}}]`

// StartHeaderToolsServer serves HeaderTools; every call succeeds with the text "ok".
func StartHeaderToolsServer(t testing.TB) *ModernServer {
	t.Helper()
	return StartModernServer(t, `{"tools":{}}`, func(method string, _ json.RawMessage) any {
		switch method {
		case "tools/list":
			return map[string]any{"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "tools": json.RawMessage(HeaderTools)}
		case "tools/call":
			return map[string]any{"resultType": "complete", "content": []any{map[string]string{"type": "text", "text": "ok"}}}
		}
		return nil
	})
}
