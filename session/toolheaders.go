package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/transport"
)

// ToolHeaders is what the last tools/list said about one tool's x-mcp-header annotations
// (2026-07-28, SEP-2243): the parameters mirrored into Mcp-Param-* headers, or why the
// annotations are invalid.
type ToolHeaders struct {
	Params   []protocol.HeaderParam
	Problems []string
	// Excluded: the annotations are invalid and this session mirrors parameters (the
	// 2026-07-28 era over Streamable HTTP), so the tool is rejected as the spec requires:
	// Call refuses it with a *ToolExcludedError. Over stdio the annotations mean nothing.
	Excluded bool
}

// ToolExcludedError is returned by Call for a tools/call of a tool whose x-mcp-header
// annotations are invalid, without sending anything. A call with Exact (the request
// composer, rpc) and SendRaw still send it.
type ToolExcludedError struct {
	Tool     string
	Problems []string
}

func (e *ToolExcludedError) Error() string {
	return fmt.Sprintf("tool %q is excluded: its x-mcp-header annotations are invalid (%s); "+
		"a Streamable HTTP client must not call it (send it with rpc to try anyway)",
		e.Tool, strings.Join(e.Problems, "; "))
}

// ToolHeaders reports the x-mcp-header parameters and problems of a listed tool; the zero
// value when the tool is not in the last tools/list or has no annotations.
func (s *Session) ToolHeaders(name string) ToolHeaders {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.toolHeadersLocked(name)
}

func (s *Session) toolHeadersLocked(name string) ToolHeaders {
	th := s.headerTools[name]
	th.Excluded = len(th.Problems) > 0 && s.mirrorsParamsLocked()
	return th
}

// mirrorsParamsLocked: tool parameters go into Mcp-Param-* headers in the 2026-07-28 era
// over Streamable HTTP; other transports may ignore the annotations, and mcpscope does.
func (s *Session) mirrorsParamsLocked() bool {
	return s.info.Stateless && s.tr != nil && s.tr.Name() == "http"
}

// learnToolHeadersLocked reads the annotations of a fresh tools list.
func (s *Session) learnToolHeadersLocked(items []json.RawMessage) {
	s.headerTools = map[string]ToolHeaders{}
	for _, raw := range items {
		var t struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		if json.Unmarshal(raw, &t) != nil {
			continue
		}
		if params, problems := protocol.ToolHeaderParams(t.InputSchema); params != nil || problems != nil {
			s.headerTools[t.Name] = ToolHeaders{Params: params, Problems: problems}
		}
	}
}

// checkToolCall runs before a tools/call is sent. When parameters are mirrored it needs
// the tool's inputSchema, so a session that never listed tools lists them first (that
// request is on the timeline like any other); a tool with invalid annotations is refused.
func (s *Session) checkToolCall(ctx context.Context, method string, params json.RawMessage) error {
	if method != "tools/call" {
		return nil
	}
	s.mu.Lock()
	mirrors, listed := s.mirrorsParamsLocked(), s.listed[ListTools]
	s.mu.Unlock()
	if !mirrors {
		return nil
	}
	if !listed {
		_, _ = s.List(ctx, ListTools) // a failed listing leaves nothing to mirror; the call goes on
	}
	name := MirroredName(method, params)
	if th := s.ToolHeaders(name); th.Excluded {
		return &ToolExcludedError{Tool: name, Problems: th.Problems}
	}
	return nil
}

// codeHeaderMismatch is HeaderMismatch (2026-07-28): the server found the Mcp-* headers
// missing or different from the body.
const codeHeaderMismatch = -32020

// afterToolCall refreshes the tools list when the server answered a tools/call with
// HeaderMismatch, as the spec suggests, so that the next call mirrors the current
// annotations. The call itself is not retried: the user sees the error and decides.
func (s *Session) afterToolCall(method string, err error) {
	var rpc *RPCError
	if method == "tools/call" && errors.As(err, &rpc) && rpc.Code == codeHeaderMismatch {
		s.refreshList(ListTools)
	}
}

// paramHeadersLocked are the Mcp-Param-* headers of a tools/call with these params.
func (s *Session) paramHeadersLocked(method string, params json.RawMessage) []transport.ParamHeader {
	if method != "tools/call" || !s.mirrorsParamsLocked() {
		return nil
	}
	th := s.headerTools[MirroredName(method, params)]
	if len(th.Params) == 0 {
		return nil
	}
	var p struct {
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(params, &p) != nil {
		return nil
	}
	var out []transport.ParamHeader
	for _, hp := range th.Params {
		if v, ok := protocol.HeaderParamValue(hp, p.Arguments); ok {
			out = append(out, transport.ParamHeader{Name: hp.Name, Value: v})
		}
	}
	return out
}
