package demo

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"hash/fnv"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/protocol/apps"
)

// The demo's MCP App (io.modelcontextprotocol/ui): dice rolls the model may ask for,
// shown by a small app that can roll again through an app-only tool.
const (
	uriDiceApp = "ui://demo/dice.html"
	schemaDice = `{"type":"object","properties":{"sides":{"type":"integer","minimum":2,"maximum":100,"default":6,"description":"Sides of the die."},` +
		`"count":{"type":"integer","minimum":1,"maximum":10,"default":2,"description":"How many dice."}}}`
)

//go:embed dice.html
var diceHTML string

// appTools are the app's tools: view_dice (the model's, with the app) and
// view_dice_reroll (the app's only: visibility ["app"]). Their names sort after the other
// tools, so the lists' first rows stay what they were.
func (d *demo) appTools() []toolDef {
	return []toolDef{
		{name: "view_dice", title: "Roll dice and view them (with an app)",
			description: "Rolls dice and shows them in an MCP App (ui://demo/dice.html) that can roll again; run it with mcpscope app view_dice.",
			input:       schemaDice, annotations: readOnly, fn: d.rollDice,
			meta: mcp.Meta{"ui": map[string]any{"resourceUri": uriDiceApp, "visibility": []string{apps.VisibleToModel}}}},
		{name: "view_dice_reroll", title: "Roll again (app only)",
			description: "The app's button: rolls the dice again. Only the app may call it (visibility [\"app\"]).",
			input:       schemaDice, annotations: readOnly, fn: d.rollDice,
			meta: mcp.Meta{"ui": map[string]any{"resourceUri": uriDiceApp, "visibility": []string{apps.VisibleToApp}}}},
	}
}

// rollDice rolls count dice of sides sides. The rolls are a hash of the call's number, so
// a run is repeatable and still changes from call to call.
func (d *demo) rollDice(_ context.Context, _ *mcp.CallToolRequest, args json.RawMessage) (*mcp.CallToolResult, error) {
	in := struct {
		Sides int `json:"sides"`
		Count int `json:"count"`
	}{Sides: 6, Count: 2}
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	d.mu.Lock()
	d.rolls++
	n := d.rolls
	d.mu.Unlock()
	rolls := make([]int, in.Count)
	total := 0
	for i := range rolls {
		h := fnv.New32a()
		fmt.Fprintf(h, "%d/%d", n, i)
		rolls[i] = int(h.Sum32()%uint32(in.Sides)) + 1
		total += rolls[i]
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("Rolled %d d%d: %v (total %d)", in.Count, in.Sides, rolls, total)}},
		StructuredContent: map[string]any{"sides": in.Sides, "rolls": rolls, "total": total, "roll": n},
	}, nil
}

// appMeta is the app resource's _meta.ui. It declares no csp: the host applies the
// spec's restrictive default, which is all the app needs.
func appMeta() mcp.Meta { return mcp.Meta{"ui": map[string]any{"prefersBorder": true}} }

// appResource is the app's ui:// resource, listed with the others.
func appResource() *mcp.Resource {
	return &mcp.Resource{URI: uriDiceApp, Name: "dice-app", Title: "Dice (MCP App)",
		Description: "The app of the dice tool: HTML for an MCP Apps host.", MIMEType: apps.MIMEType,
		Size: int64(len(diceHTML)), Meta: appMeta()}
}

func readApp(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uriDiceApp, MIMEType: apps.MIMEType,
		Text: diceHTML, Meta: appMeta()}}}, nil
}
