//lint:file-ignore SA1019 the demo exercises roots, sampling and logging, deprecated in 2026-07-28 but still part of the protocol.

package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Names of the features that toggle_tools adds and removes.
const (
	bonusTool     = "bonus"
	bonusPrompt   = "bonus"
	bonusResource = "demo://bonus"
)

const schemaToggle = `{
  "type": "object",
  "properties": {
    "what": {
      "type": "string",
      "title": "Which list to change",
      "oneOf": [
        {"const": "tools", "title": "Tools (the bonus tool)"},
        {"const": "prompts", "title": "Prompts (the bonus prompt)"},
        {"const": "resources", "title": "Resources (demo://bonus)"},
        {"const": "all", "title": "All three"}
      ],
      "default": "tools"
    }
  },
  "additionalProperties": false
}`

// logLevels are the syslog levels of MCP logging, from least to most severe.
var logLevels = []mcp.LoggingLevel{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// sessionTools are the tools that produce notifications.
func (d *demo) sessionTools() []toolDef {
	return []toolDef{
		{name: "slow", title: "Slow operation",
			description: "Waits the given number of seconds in steps, sending notifications/progress after each step when the request has a progressToken. Cancel it to see cancellation.",
			input:       schemaSlow, annotations: readOnly, fn: d.slow},
		{name: "log", title: "Log at every level",
			description: "Sends one notifications/message at each logging level; the client sees those at or above the level it set with logging/setLevel.",
			input:       schemaLog, annotations: readOnly, fn: d.logAll},
		{name: "toggle_tools", title: "Toggle list contents",
			description: "Adds or removes the bonus tool (and optionally a prompt and a resource), so the server announces list_changed.",
			input:       schemaToggle, annotations: sideEffects, fn: d.toggle},
		{name: "touch_resource", title: "Touch a resource",
			description: "Changes demo://counter and sends notifications/resources/updated to its subscribers.",
			input:       schemaTouchResource, annotations: sideEffects, fn: d.touchResource},
	}
}

func (d *demo) slow(ctx context.Context, req *mcp.CallToolRequest, args json.RawMessage) (*mcp.CallToolResult, error) {
	in := struct {
		Seconds float64 `json:"seconds"`
		Steps   int     `json:"steps"`
	}{Seconds: 5, Steps: 5}
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	token := req.Params.GetProgressToken()
	interval := time.Duration(in.Seconds * float64(time.Second) / float64(in.Steps))
	timer := time.NewTimer(interval)
	defer timer.Stop()
	for step := 1; step <= in.Steps; step++ {
		select {
		case <-ctx.Done():
			d.log.printf("slow cancelled after %d of %d steps", step-1, in.Steps)
			return nil, ctx.Err()
		case <-timer.C:
		}
		timer.Reset(interval)
		if token == nil {
			continue
		}
		err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: token,
			Progress:      float64(step),
			Total:         float64(in.Steps),
			Message:       fmt.Sprintf("step %d of %d", step, in.Steps),
		})
		if err != nil && ctx.Err() == nil {
			d.log.printf("slow: progress notification failed: %v", err)
		}
	}
	note := "no progressToken in _meta, so no progress was reported"
	if token != nil {
		note = fmt.Sprintf("reported progress %d times", in.Steps)
	}
	return textResult("Finished %d steps in %gs; %s.", in.Steps, in.Seconds, note), nil
}

func (d *demo) logAll(ctx context.Context, req *mcp.CallToolRequest, args json.RawMessage) (*mcp.CallToolResult, error) {
	in := struct {
		Message string `json:"message"`
		Logger  string `json:"logger"`
	}{Message: "Hello from the demo server", Logger: "demo"}
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	for i, level := range logLevels {
		err := req.Session.Log(ctx, &mcp.LoggingMessageParams{
			Level:  level,
			Logger: in.Logger,
			Data:   map[string]any{"message": in.Message, "level": level, "n": i + 1},
		})
		if err != nil {
			return nil, fmt.Errorf("send %s log message: %w", level, err)
		}
	}
	var names []string
	for _, l := range logLevels {
		names = append(names, string(l))
	}
	return textResult("Logged %q at %s. The client receives the messages at or above its level: the one set with logging/setLevel (none are sent before it is called), or in 2026-07-28 the io.modelcontextprotocol/logLevel _meta key of this request.",
		in.Message, strings.Join(names, ", ")), nil
}

func (d *demo) toggle(_ context.Context, _ *mcp.CallToolRequest, args json.RawMessage) (*mcp.CallToolResult, error) {
	in := struct {
		What string `json:"what"`
	}{What: "tools"}
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	kinds := []string{in.What}
	if in.What == "all" {
		kinds = []string{"tools", "prompts", "resources"}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var lines []string
	for _, kind := range kinds {
		on := !d.bonus[kind]
		d.bonus[kind] = on
		d.setBonus(kind, on)
		verb := "Removed"
		if on {
			verb = "Added"
		}
		lines = append(lines, fmt.Sprintf("%s the bonus entry in %s; the server announces notifications/%s/list_changed.", verb, kind, kind))
	}
	lines = append(lines, "(On the session in the stateful era; on a subscriptions/listen stream in 2026-07-28.)")
	return textResult("%s", strings.Join(lines, "\n")), nil
}

// setBonus adds or removes the bonus tool, prompt or resource.
func (d *demo) setBonus(kind string, on bool) {
	switch {
	case kind == "tools" && on:
		d.add(d.tools[bonusTool])
	case kind == "tools":
		d.server.RemoveTools(bonusTool)
	case kind == "prompts" && on:
		d.server.AddPrompt(&mcp.Prompt{Name: bonusPrompt, Title: "Bonus prompt",
			Description: "Appears and disappears when toggle_tools is called with what=prompts."}, d.getBonusPrompt)
	case kind == "prompts":
		d.server.RemovePrompts(bonusPrompt)
	case kind == "resources" && on:
		d.server.AddResource(&mcp.Resource{URI: bonusResource, Name: "bonus", Title: "Bonus resource", MIMEType: "text/plain"},
			func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
					{URI: req.Params.URI, MIMEType: "text/plain", Text: "A resource that comes and goes."},
				}}, nil
			})
	case kind == "resources":
		d.server.RemoveResources(bonusResource)
	}
}
