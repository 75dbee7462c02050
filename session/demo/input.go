//lint:file-ignore SA1019 the demo exercises roots, sampling and logging, deprecated in 2026-07-28 but still part of the protocol.

package demo

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tools in this file need input from the client. Each is written in the
// multi-round-trip style: the first call returns InputRequests and a signed
// RequestState; the retry carries InputResponses and the echoed state. For a
// client of the 2026-07-28 revision that is what goes on the wire (an
// input_required result, then a new tools/call). For an older client the SDK
// sends the input requests as elicitation/create, sampling/createMessage or
// roots/list requests on the session and re-invokes the handler with the
// answers, so the same code serves both eras.

// stateTTL bounds how long a requestState stays valid.
const stateTTL = 10 * time.Minute

// stateClaims is the signed payload of a requestState.
type stateClaims struct {
	Tool    string `json:"tool"`
	Args    string `json:"args"`          // digest of the canonical arguments
	Ref     string `json:"ref,omitempty"` // tool-specific reference, such as an elicitation id
	Expires int64  `json:"exp"`           // Unix seconds
}

// argsDigest hashes arguments in canonical form (sorted keys, no spaces), so
// that a retry that re-encodes the same arguments still matches.
func argsDigest(args json.RawMessage) string {
	var v any
	if json.Unmarshal(args, &v) == nil {
		if canon, err := json.Marshal(v); err == nil {
			args = canon
		}
	}
	sum := sha256.Sum256(args)
	return hex.EncodeToString(sum[:8])
}

// sealState returns "<base64url(JSON claims)>.<base64url(HMAC)>". The claims
// stay readable, which is useful in a debugger; the MAC stops tampering.
func (d *demo) sealState(c stateClaims) string {
	payload, _ := json.Marshal(c) // plain struct: cannot fail
	p := base64.RawURLEncoding.EncodeToString(payload)
	return p + "." + base64.RawURLEncoding.EncodeToString(d.mac(p))
}

func (d *demo) mac(p string) []byte {
	m := hmac.New(sha256.New, d.stateKey)
	m.Write([]byte(p))
	return m.Sum(nil)[:16]
}

// openState verifies a requestState against the retried call.
func (d *demo) openState(state, tool string, args json.RawMessage) (stateClaims, error) {
	var c stateClaims
	p, sig, ok := strings.Cut(state, ".")
	if !ok {
		return c, errors.New("missing or malformed requestState")
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, d.mac(p)) {
		return c, errors.New("requestState failed verification")
	}
	payload, err := base64.RawURLEncoding.DecodeString(p)
	if err != nil || json.Unmarshal(payload, &c) != nil {
		return c, errors.New("requestState is not readable")
	}
	switch {
	case c.Tool != tool:
		return c, fmt.Errorf("requestState belongs to tool %q", c.Tool)
	case c.Args != argsDigest(args):
		return c, errors.New("requestState belongs to a call with other arguments")
	case time.Now().Unix() > c.Expires:
		return c, errors.New("requestState has expired; call the tool again")
	}
	return c, nil
}

// awaitInput returns the client's answer to the input request named key if
// this call is a retry carrying it. Otherwise it returns the input_required
// result that asks for it.
func (d *demo) awaitInput(req *mcp.CallToolRequest, args json.RawMessage, key, ref string, ask mcp.InputRequest) (mcp.InputResponse, stateClaims, *mcp.CallToolResult, error) {
	name := req.Params.Name
	if hasResponse(req, key) {
		resp := req.Params.InputResponses[key]
		claims, err := d.openState(req.Params.RequestState, name, args)
		if err != nil {
			return nil, claims, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		}
		return resp, claims, nil, nil
	}
	how := "a request on the session"
	if req.ProtocolVersion() >= "2026-07-28" {
		how = "an input_required result"
	}
	d.log.printf("%s needs %s from the client; asking with %s", name, inputMethod(ask), how)
	state := d.sealState(stateClaims{Tool: name, Args: argsDigest(args), Ref: ref, Expires: time.Now().Add(stateTTL).Unix()})
	return nil, stateClaims{}, &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{key: ask}, RequestState: state}, nil
}

// hasResponse reports whether the call carries an input response named key,
// that is, whether it is the retry after the client answered.
func hasResponse(req *mcp.CallToolRequest, key string) bool {
	r, ok := req.Params.InputResponses[key]
	return ok && r != nil
}

// inputMethod names the client method an input request stands for.
func inputMethod(ir mcp.InputRequest) string {
	switch ir.(type) {
	case *mcp.ElicitParams:
		return "elicitation/create"
	case *mcp.CreateMessageParams, *mcp.CreateMessageWithToolsParams:
		return "sampling/createMessage"
	case *mcp.ListRootsParams:
		return "roots/list"
	}
	return fmt.Sprintf("%T", ir)
}

// inputTools are the tools that need input from the client.
func (d *demo) inputTools() []toolDef {
	return []toolDef{
		{name: "ask_user", title: "Ask the user (form)",
			description: "Asks the user to fill in a form (form-mode elicitation) with text, number, boolean and enum fields.",
			input:       schemaAskUser, annotations: readOnly, fn: d.askUser},
		{name: "ask_url", title: "Ask the user (URL)",
			description: "Asks the user to open a web page (URL-mode elicitation).",
			input:       schemaEmpty, annotations: readOnly, fn: d.askURL},
		{name: "summarize", title: "Summarise with the client's model",
			description: "Asks the client's language model to summarise text (sampling/createMessage).",
			input:       schemaSummarize, annotations: readOnly, fn: d.summarize},
		{name: "list_roots", title: "List the client's roots",
			description: "Asks the client for its roots (roots/list).",
			input:       schemaEmpty, annotations: readOnly, fn: d.listRoots},
		d.urlRequiredTool(),
	}
}

func (d *demo) askUser(_ context.Context, req *mcp.CallToolRequest, args json.RawMessage) (*mcp.CallToolResult, error) {
	in := struct {
		Message string `json:"message"`
	}{Message: "Tell the demo server a little about yourself."}
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	if !hasResponse(req, "profile") {
		if caps := req.ClientCapabilities(); caps == nil || caps.Elicitation == nil ||
			(caps.Elicitation.Form == nil && caps.Elicitation.URL != nil) {
			return errorResult("The client did not declare the elicitation capability (form mode), so the server cannot ask."), nil
		}
	}
	ask := &mcp.ElicitParams{Mode: "form", Message: in.Message, RequestedSchema: json.RawMessage(schemaProfileForm)}
	resp, _, ir, err := d.awaitInput(req, args, "profile", "", ask)
	if err != nil || ir != nil {
		return ir, err
	}
	res, ok := resp.(*mcp.ElicitResult)
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("inputResponses.profile: want an elicitation result, got %T", resp)}
	}
	switch res.Action {
	case "accept":
		answer, _ := json.Marshal(res.Content) // decoded JSON: cannot fail
		if err := d.profileSchema.validate(answer); err != nil {
			return errorResult("The answer does not match the requested schema: %v", err), nil
		}
		return textResult("Thanks, %v! You answered:\n%s", res.Content["name"], answer), nil
	case "decline":
		return textResult("You declined to answer."), nil
	default:
		return textResult("You dismissed the form without answering (action %q).", res.Action), nil
	}
}

func (d *demo) askURL(ctx context.Context, req *mcp.CallToolRequest, args json.RawMessage) (*mcp.CallToolResult, error) {
	var id string
	if !hasResponse(req, "connect") {
		if caps := req.ClientCapabilities(); caps == nil || caps.Elicitation == nil || caps.Elicitation.URL == nil {
			return errorResult("The client did not declare URL-mode elicitation (capabilities.elicitation.url), so the server cannot ask."), nil
		}
		id = "demo-" + strings.ToLower(rand.Text()[:10])
	}
	ask := &mcp.ElicitParams{
		Mode:          "url",
		Message:       "Open this page to connect the demo server to a (pretend) third-party account.",
		URL:           "https://example.com/mcpscope-demo/connect?elicitation=" + id,
		ElicitationID: id,
	}
	resp, claims, ir, err := d.awaitInput(req, args, "connect", id, ask)
	if err != nil || ir != nil {
		return ir, err
	}
	res, ok := resp.(*mcp.ElicitResult)
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("inputResponses.connect: want an elicitation result, got %T", resp)}
	}
	if res.Action != "accept" {
		return textResult("You chose not to open the page (action %q).", res.Action), nil
	}
	if req.ProtocolVersion() < "2026-07-28" {
		// The stateful era tells the client when the out-of-band step is done.
		err := req.Session.NotifyElicitationComplete(ctx, &mcp.ElicitationCompleteParams{ElicitationID: claims.Ref})
		if err != nil {
			return nil, fmt.Errorf("notify elicitation complete: %w", err)
		}
		return textResult("You agreed to open the page; elicitation %s is complete (notifications/elicitation/complete was sent).", claims.Ref), nil
	}
	return textResult("You agreed to open the page for elicitation %s. The demo does not serve it, so there is nothing more to do.", claims.Ref), nil
}

func (d *demo) summarize(_ context.Context, req *mcp.CallToolRequest, args json.RawMessage) (*mcp.CallToolResult, error) {
	in := struct {
		Text      string `json:"text"`
		MaxTokens int64  `json:"max_tokens"`
	}{Text: "The Model Context Protocol lets applications provide context to language models in a standard way.", MaxTokens: 200}
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	if !hasResponse(req, "summary") {
		if caps := req.ClientCapabilities(); caps == nil || caps.Sampling == nil {
			return errorResult("The client did not declare the sampling capability, so the server cannot ask its model."), nil
		}
	}
	ask := &mcp.CreateMessageParams{
		Messages: []*mcp.SamplingMessage{{
			Role:    "user",
			Content: &mcp.TextContent{Text: "Summarise the following text in one sentence:\n\n" + in.Text},
		}},
		SystemPrompt:     "You are a concise assistant.",
		IncludeContext:   "none",
		MaxTokens:        in.MaxTokens,
		Temperature:      0.2,
		ModelPreferences: &mcp.ModelPreferences{Hints: []*mcp.ModelHint{{Name: "claude-haiku"}}, SpeedPriority: 0.8, CostPriority: 0.6},
	}
	resp, _, ir, err := d.awaitInput(req, args, "summary", "", ask)
	if err != nil || ir != nil {
		return ir, err
	}
	res, ok := resp.(*mcp.CreateMessageWithToolsResult)
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("inputResponses.summary: want a sampling result, got %T", resp)}
	}
	var texts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, t.Text)
		}
	}
	if len(texts) == 0 {
		return errorResult("The client's model (%s) answered without text.", res.Model), nil
	}
	by := res.Model
	if res.StopReason != "" {
		by += ", stop reason " + res.StopReason
	}
	return textResult("Summary by %s:\n%s", by, strings.Join(texts, "\n")), nil
}

func (d *demo) listRoots(_ context.Context, req *mcp.CallToolRequest, args json.RawMessage) (*mcp.CallToolResult, error) {
	if !hasResponse(req, "roots") {
		if caps := req.ClientCapabilities(); caps == nil || caps.RootsV2 == nil {
			return errorResult("The client did not declare the roots capability, so the server cannot ask for them."), nil
		}
	}
	resp, _, ir, err := d.awaitInput(req, args, "roots", "", &mcp.ListRootsParams{})
	if err != nil || ir != nil {
		return ir, err
	}
	res, ok := resp.(*mcp.ListRootsResult)
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("inputResponses.roots: want a roots result, got %T", resp)}
	}
	if len(res.Roots) == 0 {
		return textResult("The client has no roots."), nil
	}
	lines := []string{fmt.Sprintf("The client has %d root(s):", len(res.Roots))}
	for _, r := range res.Roots {
		name := r.Name
		if name == "" {
			name = "(unnamed)"
		}
		lines = append(lines, fmt.Sprintf("- %s: %s", name, r.URI))
	}
	return textResult("%s", strings.Join(lines, "\n")), nil
}
