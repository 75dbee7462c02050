package demo

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol/apps"
)

// TestDiceApp: dice links to ui://demo/dice.html for the model, view_dice_reroll only for the
// app; the resource reads as an HTML5 app document, with a resultType in 2026-07-28; the
// rolls are structured content within the asked sides.
func TestDiceApp(t *testing.T) {
	s := startStdio(t)
	initialize(t, s.lineClient, "2025-11-25", `{}`)
	links := map[string]apps.ToolLink{}
	cursor := ""
	for {
		var list struct {
			Tools []struct {
				Name string          `json:"name"`
				Meta json.RawMessage `json:"_meta"`
			} `json:"tools"`
			NextCursor string `json:"nextCursor"`
		}
		params := `{}`
		if cursor != "" {
			params = `{"cursor":"` + cursor + `"}`
		}
		s.roundTrip("tools/list", params).result(t, &list)
		for _, tool := range list.Tools {
			if l, ok := apps.ToolLinkOf(tool.Meta); ok {
				links[tool.Name] = l
			}
		}
		if cursor = list.NextCursor; cursor == "" {
			break
		}
	}
	if l := links["view_dice"]; l.ResourceURI != uriDiceApp || !l.ModelVisible() || l.AppVisible() {
		t.Errorf("dice's link %+v: want %s, for the model only", l, uriDiceApp)
	}
	if l := links["view_dice_reroll"]; l.ResourceURI != uriDiceApp || !l.AppOnly() {
		t.Errorf("view_dice_reroll's link %+v: want %s, app-only", l, uriDiceApp)
	}
	if len(links) != 2 {
		t.Errorf("tools with an app: %v, want dice and view_dice_reroll", links)
	}

	var read struct {
		Contents []struct {
			URI, MIMEType, Text string
			Meta                json.RawMessage `json:"_meta"`
		} `json:"contents"`
	}
	s.roundTrip("resources/read", `{"uri":"`+uriDiceApp+`"}`).result(t, &read)
	if len(read.Contents) != 1 {
		t.Fatalf("contents %+v", read.Contents)
	}
	c := read.Contents[0]
	meta, ok, err := apps.ResourceMetaOf(c.Meta)
	if c.URI != uriDiceApp || c.MIMEType != apps.MIMEType || !strings.HasPrefix(c.Text, "<!DOCTYPE html>") ||
		!strings.Contains(c.Text, "ui/initialize") || !strings.Contains(c.Text, "view_dice_reroll") || !strings.Contains(c.Text, "ui/notifications/size-changed") ||
		!ok || err != nil || meta.CSP != nil || meta.PrefersBorder == nil || !*meta.PrefersBorder {
		t.Errorf("the app reads as %s %s (%d bytes), meta %+v %v %v", c.URI, c.MIMEType, len(c.Text), meta, ok, err)
	}

	res := callTool(t, s.lineClient, "view_dice_reroll", `{"sides":4,"count":3}`)
	var sc struct {
		Rolls []int `json:"rolls"`
		Total int   `json:"total"`
	}
	if err := json.Unmarshal(res.StructuredContent, &sc); err != nil || len(sc.Rolls) != 3 || sc.Total < 3 || sc.Total > 12 {
		t.Errorf("view_dice_reroll: %+v %v", sc, err)
	}
	for _, r := range sc.Rolls {
		if r < 1 || r > 4 {
			t.Errorf("a d4 rolled %d", r)
		}
	}
}
