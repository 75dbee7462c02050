package apps

import (
	"encoding/json"
	"strings"
)

// ExtensionID names the extension under capabilities.extensions.
const ExtensionID = "io.modelcontextprotocol/ui"

// MIMEType is the content type of an HTML app, the only one the 2026-01-26 revision
// defines.
const MIMEType = "text/html;profile=mcp-app"

// Scheme is the URI scheme every UI resource uses.
const Scheme = "ui://"

// SpecRevision is the version of the specification SpecURL names.
const SpecRevision = "2026-01-26"

// SpecURL is where the extension's specification lives; findings link to its sections.
const SpecURL = "https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx"

// Visibility values a tool may list in _meta.ui.visibility.
const (
	VisibleToModel = "model"
	VisibleToApp   = "app"
)

// ClientSetting is the value mcpscope declares under
// capabilities.extensions["io.modelcontextprotocol/ui"]: the MIME types it hosts.
func ClientSetting() map[string]any {
	return map[string]any{"mimeTypes": []string{MIMEType}}
}

// ToolLink is a tool's tie to an app: _meta.ui.resourceUri (or the deprecated flat
// _meta["ui/resourceUri"]) and _meta.ui.visibility.
type ToolLink struct {
	ResourceURI string
	// Flat is true when the URI came from the deprecated flat key.
	Flat bool
	// Visibility is the list as sent; nil when absent (which means model and app).
	Visibility []string
	// VisibilityBad is true when visibility was present but not an array of strings.
	VisibilityBad bool
}

// ToolLinkOf reads the app link from a tool's _meta. ok is false when the tool has
// neither a resourceUri nor a visibility.
func ToolLinkOf(meta json.RawMessage) (l ToolLink, ok bool) {
	if len(meta) == 0 {
		return l, false
	}
	var m struct {
		UI   json.RawMessage `json:"ui"`
		Flat *string         `json:"ui/resourceUri"`
	}
	if json.Unmarshal(meta, &m) != nil {
		return l, false
	}
	var ui struct {
		ResourceURI *string         `json:"resourceUri"`
		Visibility  json.RawMessage `json:"visibility"`
	}
	if len(m.UI) > 0 {
		_ = json.Unmarshal(m.UI, &ui)
	}
	switch {
	case ui.ResourceURI != nil:
		l.ResourceURI, ok = *ui.ResourceURI, true
	case m.Flat != nil:
		l.ResourceURI, l.Flat, ok = *m.Flat, true, true
	}
	if len(ui.Visibility) > 0 && string(ui.Visibility) != "null" {
		ok = true
		if json.Unmarshal(ui.Visibility, &l.Visibility) != nil {
			l.Visibility, l.VisibilityBad = nil, true
		}
	}
	return l, ok
}

// HasApp reports whether the tool names a UI resource.
func (l ToolLink) HasApp() bool { return l.ResourceURI != "" }

// visible reports whether who may see the tool; an absent list means everyone.
func (l ToolLink) visible(who string) bool {
	if l.Visibility == nil {
		return true
	}
	for _, v := range l.Visibility {
		if v == who {
			return true
		}
	}
	return false
}

// ModelVisible reports whether the agent may see and call the tool.
func (l ToolLink) ModelVisible() bool { return l.visible(VisibleToModel) }

// AppVisible reports whether an app of the same server may call the tool.
func (l ToolLink) AppVisible() bool { return l.visible(VisibleToApp) }

// AppOnly reports whether the tool is hidden from the model and callable by apps.
func (l ToolLink) AppOnly() bool { return !l.ModelVisible() && l.AppVisible() }

// UnknownVisibility returns the values of the list that the spec does not define.
func (l ToolLink) UnknownVisibility() []string {
	var out []string
	for _, v := range l.Visibility {
		if v != VisibleToModel && v != VisibleToApp {
			out = append(out, v)
		}
	}
	return out
}

// CSP is a UI resource's _meta.ui.csp: the origins its app may reach, by purpose.
type CSP struct {
	ConnectDomains  []string `json:"connectDomains,omitempty"`
	ResourceDomains []string `json:"resourceDomains,omitempty"`
	FrameDomains    []string `json:"frameDomains,omitempty"`
	BaseURIDomains  []string `json:"baseUriDomains,omitempty"`
}

// ResourceMeta is a UI resource's _meta.ui, from resources/list or resources/read.
type ResourceMeta struct {
	// CSP is nil when the resource declared none: the host then applies DefaultCSP.
	CSP *CSP `json:"csp,omitempty"`
	// Permissions are the names under permissions (camera, microphone, geolocation,
	// clipboardWrite, or others a server sent), in the order sent.
	Permissions   []string `json:"-"`
	Domain        string   `json:"domain,omitempty"`
	PrefersBorder *bool    `json:"prefersBorder,omitempty"`
}

// ResourceMetaOf reads _meta.ui of a resource or of one of resources/read's contents.
// ok is false when there is no _meta.ui; err says what of it could not be read.
func ResourceMetaOf(meta json.RawMessage) (r ResourceMeta, ok bool, err error) {
	if len(meta) == 0 {
		return r, false, nil
	}
	var m struct {
		UI json.RawMessage `json:"ui"`
	}
	if err := json.Unmarshal(meta, &m); err != nil || len(m.UI) == 0 || string(m.UI) == "null" {
		return r, false, err
	}
	if err := json.Unmarshal(m.UI, &r); err != nil {
		return r, true, err
	}
	var p struct {
		Permissions json.RawMessage `json:"permissions"`
	}
	_ = json.Unmarshal(m.UI, &p)
	if len(p.Permissions) > 0 && string(p.Permissions) != "null" {
		r.Permissions = objectKeys(p.Permissions)
	}
	return r, true, nil
}

// objectKeys returns the member names of a JSON object in order.
func objectKeys(obj json.RawMessage) []string {
	dec := json.NewDecoder(strings.NewReader(string(obj)))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
	}
	return keys
}

// DefaultCSP is the policy a host must use when a UI resource declares no csp
// (apps.mdx, "Host Behavior: Restrictive Default").
const DefaultCSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; media-src 'self' data:; connect-src 'none'"

// Policy is the Content-Security-Policy header value a host builds from a declared
// CSP: declared origins are added to the restrictive default, by directive, and no
// directive is loosened beyond what was declared.
func (c *CSP) Policy() string {
	if c == nil {
		return DefaultCSP
	}
	join := func(base string, extra []string) string {
		if len(extra) == 0 {
			return base
		}
		return base + " " + strings.Join(extra, " ")
	}
	res := c.ResourceDomains
	connect := "'none'"
	if len(c.ConnectDomains) > 0 {
		connect = strings.Join(c.ConnectDomains, " ")
	}
	frame := "'none'"
	if len(c.FrameDomains) > 0 {
		frame = strings.Join(c.FrameDomains, " ")
	}
	base := "'self'"
	if len(c.BaseURIDomains) > 0 {
		base = join("'self'", c.BaseURIDomains)
	}
	return strings.Join([]string{
		"default-src 'none'",
		join("script-src 'self' 'unsafe-inline'", res),
		join("style-src 'self' 'unsafe-inline'", res),
		join("img-src 'self' data:", res),
		join("font-src 'self'", res),
		join("media-src 'self' data:", res),
		"connect-src " + connect,
		"frame-src " + frame,
		"base-uri " + base,
	}, "; ")
}
