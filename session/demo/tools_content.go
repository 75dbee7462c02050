package demo

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// contentTools are the tools that return non-text content blocks.
func (d *demo) contentTools() []toolDef {
	return []toolDef{
		{name: "image", title: "Image", description: "Returns a small generated PNG as image content.",
			input: schemaImage, annotations: readOnly, fn: d.image,
			icons: []mcp.Icon{{Source: pngDataURI(16), MIMEType: "image/png", Sizes: []string{"16x16"}}}},
		{name: "audio", title: "Audio", description: "Returns a short generated sine tone (WAV) as audio content.",
			input: schemaAudio, annotations: readOnly, fn: d.audio},
		{name: "links", title: "Resource links", description: "Returns resource_link content blocks pointing at demo resources.",
			input: schemaEmpty, annotations: readOnly, fn: d.links},
		{name: "embedded", title: "Embedded resources", description: "Returns a text and a binary resource embedded in the result.",
			input: schemaEmpty, annotations: readOnly, fn: d.embedded},
	}
}

func (d *demo) image(_ context.Context, _ *mcp.CallToolRequest, args json.RawMessage) (*mcp.CallToolResult, error) {
	in := struct {
		Size int `json:"size"`
	}{Size: 64}
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.TextContent{Text: "A generated PNG:"},
		&mcp.ImageContent{MIMEType: "image/png", Data: demoPNG(in.Size)},
	}}, nil
}

func (d *demo) audio(_ context.Context, _ *mcp.CallToolRequest, args json.RawMessage) (*mcp.CallToolResult, error) {
	in := struct {
		Frequency  int `json:"frequency"`
		DurationMS int `json:"duration_ms"`
	}{Frequency: 440, DurationMS: 400}
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.AudioContent{MIMEType: "audio/wav", Data: demoWAV(float64(in.Frequency), in.DurationMS)},
	}}, nil
}

func (d *demo) links(context.Context, *mcp.CallToolRequest, json.RawMessage) (*mcp.CallToolResult, error) {
	content := []mcp.Content{&mcp.TextContent{Text: "Here are some demo resources you can read:"}}
	for _, r := range staticResources() {
		if r.URI == uriReadme || r.URI == uriConfig || r.URI == uriLogo || r.URI == uriCounter {
			link := &mcp.ResourceLink{
				URI:         r.URI,
				Name:        r.Name,
				Title:       r.Title,
				Description: r.Description,
				MIMEType:    r.MIMEType,
			}
			if r.Size > 0 {
				link.Size = ptr(r.Size)
			}
			content = append(content, link)
		}
	}
	content = append(content, &mcp.ResourceLink{
		URI:      "demo://notes/mcp",
		Name:     "notes-mcp",
		Title:    "Notes about MCP (from a template)",
		MIMEType: "text/markdown",
	})
	return &mcp.CallToolResult{Content: content}, nil
}

func (d *demo) embedded(context.Context, *mcp.CallToolRequest, json.RawMessage) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.TextContent{Text: "Two embedded resources follow: a markdown text and a PNG blob."},
		&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: uriReadme, MIMEType: "text/markdown", Text: readmeText}},
		&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: uriLogo, MIMEType: "image/png", Blob: demoPNG(64)}},
	}}, nil
}
