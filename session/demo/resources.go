package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// URIs of the static demo resources.
const (
	uriReadme    = "demo://readme"
	uriConfig    = "demo://config.json"
	uriLogo      = "demo://logo.png"
	uriChime     = "demo://chime.wav"
	uriCounter   = "demo://counter"
	itemCount    = 25
	notesPrefix  = "demo://notes/"
	notesPattern = notesPrefix + "{topic}"
)

// noteTopics are the topics offered by completion for demo://notes/{topic};
// any other topic works too.
var noteTopics = []string{"go", "json-rpc", "mcp", "pagination", "progress", "sampling", "stdio", "streamable-http", "testing", "tui"}

const readmeText = `# mcpscope demo server

This server exists so that you can see every part of the Model Context
Protocol on the wire.

* **Tools** – call ` + "`slow`" + ` and watch progress notifications, or cancel it.
* **Resources** – 30 of them, listed 10 per page; subscribe to ` + "`demo://counter`" + `
  and call ` + "`touch_resource`" + `.
* **Prompts** – ` + "`showcase`" + ` returns text, an image and an embedded resource.
`

const configJSON = `{
  "server": "mcpscope-demo",
  "features": ["tools", "resources", "prompts", "logging", "completions"],
  "pageSize": 10,
  "eras": {"stateful": ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"], "stateless": ["2026-07-28"]}
}`

// staticResources lists every fixed resource in the order they are added.
func staticResources() []*mcp.Resource {
	rs := []*mcp.Resource{
		{URI: uriReadme, Name: "readme", Title: "Read me", Description: "What this server is for (markdown).",
			MIMEType: "text/markdown", Size: int64(len(readmeText)),
			Annotations: &mcp.Annotations{Audience: []mcp.Role{"user", "assistant"}, Priority: 0.9, LastModified: "2025-11-25T00:00:00Z"}},
		{URI: uriConfig, Name: "config", Title: "Configuration", Description: "A JSON document.",
			MIMEType: "application/json", Size: int64(len(configJSON))},
		{URI: uriLogo, Name: "logo", Title: "Logo", Description: "A generated 64×64 PNG (binary blob).",
			MIMEType: "image/png", Size: int64(len(demoPNG(64)))},
		{URI: uriChime, Name: "chime", Title: "Chime", Description: "A generated WAV sound (binary blob).",
			MIMEType: "audio/wav", Size: int64(len(demoWAV(660, 300)))},
		{URI: uriCounter, Name: "counter", Title: "Counter",
			Description: "Changes whenever touch_resource is called; subscribe to it to get notifications/resources/updated.",
			MIMEType:    "text/plain"},
	}
	for i := 1; i <= itemCount; i++ {
		rs = append(rs, &mcp.Resource{
			URI:      fmt.Sprintf("demo://items/%02d", i),
			Name:     fmt.Sprintf("item-%02d", i),
			Title:    fmt.Sprintf("Item %d of %d", i, itemCount),
			MIMEType: "text/plain",
		})
	}
	return rs
}

// addResources registers the static resources and the notes template.
func (d *demo) addResources() {
	for _, r := range staticResources() {
		d.server.AddResource(r, d.readResource)
	}
	d.server.AddResource(appResource(), readApp)
	d.server.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: notesPattern,
		Name:        "notes",
		Title:       "Notes on a topic",
		Description: "A short generated note about any topic; the topic argument has completion.",
		MIMEType:    "text/markdown",
	}, d.readNote)
}

// readResource serves every static resource.
func (d *demo) readResource(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	var c *mcp.ResourceContents
	switch {
	case uri == uriReadme:
		c = &mcp.ResourceContents{URI: uri, MIMEType: "text/markdown", Text: readmeText}
	case uri == uriConfig:
		c = &mcp.ResourceContents{URI: uri, MIMEType: "application/json", Text: configJSON}
	case uri == uriLogo:
		c = &mcp.ResourceContents{URI: uri, MIMEType: "image/png", Blob: demoPNG(64)}
	case uri == uriChime:
		c = &mcp.ResourceContents{URI: uri, MIMEType: "audio/wav", Blob: demoWAV(660, 300)}
	case uri == uriCounter:
		c = &mcp.ResourceContents{URI: uri, MIMEType: "text/plain", Text: d.counterText()}
	case strings.HasPrefix(uri, "demo://items/"):
		n := strings.TrimPrefix(uri, "demo://items/")
		c = &mcp.ResourceContents{URI: uri, MIMEType: "text/plain",
			Text: fmt.Sprintf("This is item %s of %d. There are enough items to need three pages.", n, itemCount)}
	default:
		return nil, mcp.ResourceNotFoundError(uri)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
}

// readNote serves demo://notes/{topic}.
func (d *demo) readNote(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	topic, err := url.PathUnescape(strings.TrimPrefix(req.Params.URI, notesPrefix))
	if err != nil || topic == "" || strings.Contains(topic, "/") {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	text := fmt.Sprintf("# Notes on %s\n\nThese notes were generated for the topic %q.\nTry completion on the {topic} argument of the template for more topics.\n", topic, topic)
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
		{URI: req.Params.URI, MIMEType: "text/markdown", Text: text},
	}}, nil
}

// counterText is the current content of demo://counter.
func (d *demo) counterText() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.counter == 0 {
		return "revision 0: never touched; call the touch_resource tool"
	}
	return fmt.Sprintf("revision %d: %s (at %s)", d.counter, d.counterNote, d.touchedAt)
}

// touch bumps demo://counter and returns its new revision.
func (d *demo) touch(note string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.counter++
	d.counterNote = note
	d.touchedAt = time.Now().UTC().Format(time.RFC3339)
	return d.counter
}

// knownResource reports whether uri names a resource this server can read.
func knownResource(uri string) bool {
	if strings.HasPrefix(uri, notesPrefix) {
		return len(uri) > len(notesPrefix)
	}
	for _, r := range staticResources() {
		if r.URI == uri {
			return true
		}
	}
	return false
}

func (d *demo) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	if !knownResource(req.Params.URI) {
		return mcp.ResourceNotFoundError(req.Params.URI)
	}
	d.log.printf("subscribed to %s", req.Params.URI)
	return nil
}

func (d *demo) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	d.log.printf("unsubscribed from %s", req.Params.URI)
	return nil
}

// touchResource is the touch_resource tool: it changes demo://counter and
// notifies its subscribers with notifications/resources/updated.
func (d *demo) touchResource(ctx context.Context, _ *mcp.CallToolRequest, args json.RawMessage) (*mcp.CallToolResult, error) {
	in := struct {
		Note string `json:"note"`
	}{Note: "touched"}
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	rev := d.touch(in.Note)
	if err := d.server.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uriCounter}); err != nil {
		return nil, fmt.Errorf("notify subscribers: %w", err)
	}
	return textResult("%s is now at revision %d; subscribers were sent notifications/resources/updated.", uriCounter, rev), nil
}
