package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// toolFunc handles a tool call whose arguments already passed validation
// against the tool's input schema. args is never nil: absent arguments are
// passed as an empty object.
type toolFunc func(ctx context.Context, req *mcp.CallToolRequest, args json.RawMessage) (*mcp.CallToolResult, error)

// registeredTool is a tool definition together with its compiled input
// schema and handler.
type registeredTool struct {
	tool   *mcp.Tool
	schema *lazySchema
	fn     toolFunc
}

// toolDef describes one tool for [demo.define].
type toolDef struct {
	name, title, description string
	input, output            string // JSON Schema documents
	annotations              *mcp.ToolAnnotations
	icons                    []mcp.Icon
	meta                     mcp.Meta // the tool's _meta (an app's link, app.go)
	fn                       toolFunc
}

// define remembers a tool and its schema (compiled on its first call); add registers it.
func (d *demo) define(def toolDef) *registeredTool {
	schema := newLazySchema("demo:tool/"+def.name, def.input)
	t := &mcp.Tool{
		Name:        def.name,
		Title:       def.title,
		Description: def.description,
		InputSchema: json.RawMessage(def.input),
		Annotations: def.annotations,
		Icons:       def.icons,
		Meta:        def.meta,
	}
	if def.output != "" {
		t.OutputSchema = json.RawMessage(def.output)
	}
	rt := &registeredTool{tool: t, schema: schema, fn: def.fn}
	d.tools[def.name] = rt
	return rt
}

// add registers a defined tool with the server, which announces it to
// sessions with notifications/tools/list_changed.
func (d *demo) add(rt *registeredTool) {
	d.server.AddTool(rt.tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if since := toolSince[rt.tool.Name]; since != "" {
			if v := req.ProtocolVersion(); v != "" && v < since {
				return errorResult("%s needs protocol revision %s or later; this session speaks %s", rt.tool.Name, since, v), nil
			}
		}
		args := req.Params.Arguments
		if len(args) == 0 || string(args) == "null" {
			args = json.RawMessage(`{}`)
		}
		if err := rt.schema.validate(args); err != nil {
			return errorResult("invalid arguments for %s: %v", rt.tool.Name, err), nil
		}
		return rt.fn(ctx, req, args)
	})
}

// toolSince is the first revision in which a tool can do what it does: audio content
// (2025-03-26), resource links and form elicitation (2025-06-18), URL elicitation
// (2025-11-25). In a session of an earlier revision the tool answers with a tool error
// rather than send what that revision does not define.
var toolSince = map[string]string{
	"audio":    "2025-03-26",
	"links":    "2025-06-18",
	"ask_user": "2025-06-18",
	"ask_url":  "2025-11-25",

	"url_required": "2025-11-25",
}

// compileSchema compiles a JSON Schema (draft 2020-12) with format
// assertions on, so that "email", "date" and "uri" are checked.
func compileSchema(url, doc string) (*jsonschema.Schema, error) {
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(url, v); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// validate checks a JSON value against a compiled schema.
func validate(s *jsonschema.Schema, raw json.RawMessage) error {
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(raw)))
	if err != nil {
		return err
	}
	return s.Validate(v)
}

// decode unmarshals validated arguments over dst, which holds the defaults.
func decode(args json.RawMessage, dst any) error {
	if err := json.Unmarshal(args, dst); err != nil {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
	}
	return nil
}

// textResult is a successful result with one text block.
func textResult(format string, args ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(format, args...)}}}
}

// errorResult is a tool execution error: isError with an explanation.
func errorResult(format string, args ...any) *mcp.CallToolResult {
	r := textResult(format, args...)
	r.IsError = true
	return r
}

func ptr[T any](v T) *T { return &v }

// Tool annotation presets.
var (
	readOnly    = &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)}
	sideEffects = &mcp.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(false)}
)

// addTools registers every demo tool.
func (d *demo) addTools() {
	defs := []toolDef{
		{name: "echo", title: "Echo", description: "Returns the text it is given. The text may span several lines.",
			input: schemaEcho, annotations: readOnly, fn: d.echo},
		{name: "add", title: "Add two numbers", description: "Adds two numbers between -1000 and 1000, optionally rounding the sum.",
			input: schemaAdd, annotations: readOnly, fn: d.addNumbers},
		{name: "create_ticket", title: "Create a ticket",
			description: "Files a (pretend) ticket. The input schema shows nested objects, arrays of objects, titled enums, defaults, a nullable field, $defs/$ref, a oneOf choice and string formats.",
			input:       schemaCreateTicket, annotations: sideEffects, fn: d.createTicket},
		{name: "get_weather", title: "Weather forecast",
			description: "Returns a made-up forecast as structured content that matches the output schema. Over HTTP in 2026-07-28 the city is mirrored in the Mcp-Param-City header.",
			input:       schemaGetWeather, output: schemaGetWeatherOutput, annotations: readOnly, fn: d.getWeather},
		{name: "no_args", title: "No arguments", description: "A tool that takes no parameters at all.",
			input: schemaEmpty, annotations: readOnly, fn: d.noArgs},
		{name: "fail", title: "Fail", description: "Always fails with a tool execution error (isError: true).",
			input: schemaFail, annotations: readOnly, fn: d.fail},
		{name: "crash_rpc", title: "JSON-RPC error", description: "Always fails with a JSON-RPC error response instead of a result.",
			input: schemaCrashRPC, annotations: readOnly, fn: d.crashRPC},
	}
	defs = append(defs, d.contentTools()...)
	defs = append(defs, d.sessionTools()...)
	defs = append(defs, d.inputTools()...)
	defs = append(defs, d.appTools()...)
	for _, def := range defs {
		d.add(d.define(def))
	}
	// The bonus tool is defined but only registered by toggle_tools.
	d.define(toolDef{name: bonusTool, title: "Bonus", description: "Appears and disappears when toggle_tools is called.",
		input: schemaEmpty, annotations: readOnly, fn: func(context.Context, *mcp.CallToolRequest, json.RawMessage) (*mcp.CallToolResult, error) {
			return textResult("You found the bonus tool. Call toggle_tools again to hide it."), nil
		}})
}

func (d *demo) echo(_ context.Context, _ *mcp.CallToolRequest, args json.RawMessage) (*mcp.CallToolResult, error) {
	var in struct {
		Text      string `json:"text"`
		Uppercase bool   `json:"uppercase"`
	}
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	if in.Uppercase {
		in.Text = strings.ToUpper(in.Text)
	}
	return textResult("%s", in.Text), nil
}

func (d *demo) addNumbers(_ context.Context, _ *mcp.CallToolRequest, args json.RawMessage) (*mcp.CallToolResult, error) {
	var in struct {
		A       float64 `json:"a"`
		B       float64 `json:"b"`
		Integer bool    `json:"integer"`
	}
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	sum := in.A + in.B
	if in.Integer {
		sum = math.Round(sum)
	}
	return textResult("%g + %g = %g", in.A, in.B, sum), nil
}

func (d *demo) createTicket(_ context.Context, _ *mcp.CallToolRequest, args json.RawMessage) (*mcp.CallToolResult, error) {
	in := struct {
		Title    string  `json:"title"`
		Kind     string  `json:"kind"`
		Priority string  `json:"priority"`
		Assignee *string `json:"assignee"`
		Reporter struct {
			Name  string `json:"name"`
			Email string `json:"email"`
		} `json:"reporter"`
		Target struct {
			Kind string `json:"kind"`
			URL  string `json:"url"`
			Name string `json:"name"`
		} `json:"target"`
		Labels []string          `json:"labels"`
		Steps  []json.RawMessage `json:"steps"`
	}{Kind: "bug", Priority: "p2"}
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	h := fnv.New32a()
	h.Write(args)
	id := fmt.Sprintf("DEMO-%d", 100+h.Sum32()%900)
	assignee := "unassigned"
	if in.Assignee != nil {
		assignee = *in.Assignee
	}
	target := in.Target.URL
	if in.Target.Kind == "service" {
		target = "service " + in.Target.Name
	}
	return textResult("Created %s: [%s/%s] %q\nreporter: %s <%s>\nassignee: %s\ntarget: %s\nlabels: %v, %d step(s) to reproduce\n\nArguments as received:\n%s",
		id, in.Kind, in.Priority, in.Title, in.Reporter.Name, in.Reporter.Email, assignee, target,
		in.Labels, len(in.Steps), args), nil
}

// weather is get_weather's structured output; it matches schemaGetWeatherOutput.
type weather struct {
	City        string     `json:"city"`
	Temperature float64    `json:"temperature"`
	Units       string     `json:"units"`
	Conditions  string     `json:"conditions"`
	Humidity    int        `json:"humidity"`
	Forecast    []forecast `json:"forecast"`
}

type forecast struct {
	Day  string  `json:"day"`
	High float64 `json:"high"`
	Low  float64 `json:"low"`
}

func (d *demo) getWeather(_ context.Context, _ *mcp.CallToolRequest, args json.RawMessage) (*mcp.CallToolResult, error) {
	in := struct {
		City  string `json:"city"`
		Units string `json:"units"`
	}{Units: "celsius"}
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(in.City)))
	seed := h.Sum32()
	conv := func(c float64) float64 {
		if in.Units == "fahrenheit" {
			return math.Round(c*9/5 + 32)
		}
		return c
	}
	w := weather{
		City:        in.City,
		Temperature: conv(float64(int(seed%35) - 5)),
		Units:       in.Units,
		Conditions:  []string{"sunny", "cloudy", "rain", "snow", "fog"}[seed/35%5],
		Humidity:    int(seed / 175 % 101),
	}
	for i, day := range []string{"Mon", "Tue", "Wed"} {
		base := float64(int(seed>>(i*4)%30) - 5)
		w.Forecast = append(w.Forecast, forecast{Day: day, High: conv(base + 6), Low: conv(base)})
	}
	text, err := json.Marshal(w)
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(text)}},
		StructuredContent: w,
	}, nil
}

func (d *demo) noArgs(_ context.Context, req *mcp.CallToolRequest, _ json.RawMessage) (*mcp.CallToolResult, error) {
	who := "an anonymous client"
	if info := req.ClientInfo(); info != nil {
		who = info.Name
		if info.Version != "" {
			who += " " + info.Version
		}
	}
	v := req.ProtocolVersion()
	if v == "" {
		v = "an unknown protocol version"
	}
	return textResult("Called without arguments by %s speaking %s.", who, v), nil
}

func (d *demo) fail(_ context.Context, _ *mcp.CallToolRequest, args json.RawMessage) (*mcp.CallToolResult, error) {
	in := struct {
		Message string `json:"message"`
	}{Message: "The demo tool failed on purpose."}
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	return errorResult("%s", in.Message), nil
}

func (d *demo) crashRPC(_ context.Context, _ *mcp.CallToolRequest, args json.RawMessage) (*mcp.CallToolResult, error) {
	in := struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{Code: -32000, Message: "The demo server refused this call on purpose."}
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	return nil, &jsonrpc.Error{
		Code:    in.Code,
		Message: in.Message,
		Data:    json.RawMessage(`{"tool":"crash_rpc","hint":"this is a JSON-RPC error, not a tool result with isError"}`),
	}
}
