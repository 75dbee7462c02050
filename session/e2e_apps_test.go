package session_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcpscope/mcpscope/protocol/apps"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// TestAppsExtensionDeclared: with Caps.Apps the client capabilities name the MCP Apps
// extension with the MIME types mcpscope hosts, in the initialize request of the stateful
// era and in every request's _meta of the stateless one (server/discover and tools/list);
// without it they do not name it. connectChecked validates every frame sent against the
// negotiated revision's schema.
func TestAppsExtensionDeclared(t *testing.T) {
	streamable, _ := sessiontest.StartDemoHTTP(t)
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		for _, on := range []bool{true, false} {
			name := era + "/apps"
			if !on {
				name = era + "/no-apps"
			}
			t.Run(name, func(t *testing.T) {
				caps := session.DefaultCaps()
				caps.Apps = on
				s, rec := connectChecked(t, transport.NewStreamableHTTP(transport.HTTPOptions{URL: streamable}),
					session.Config{Protocol: era, Caps: caps})
				if _, err := s.List(testCtx(t), session.ListTools); err != nil {
					t.Fatalf("tools/list: %v", err)
				}
				var sent []string
				if era == "2026-07-28" {
					sent = []string{"server/discover", "tools/list"}
				} else {
					sent = []string{"initialize"}
				}
				for _, method := range sent {
					e := rec.Find(sessiontest.Sent(method))
					if e == nil {
						t.Fatalf("%s was not sent:\n%s", method, rec.Timeline())
					}
					got, ok := appsSetting(t, e.Frame.Params, era == "2026-07-28")
					if ok != on {
						t.Errorf("%s: extension declared %v, want %v: %s", method, ok, on, e.Frame.Raw)
					}
					if on && !reflect.DeepEqual(got.MimeTypes, []string{apps.MIMEType}) {
						t.Errorf("%s: mimeTypes %v, want [%s]", method, got.MimeTypes, apps.MIMEType)
					}
				}
			})
		}
	}
}

// appsSetting digs the MCP Apps setting out of a request's capabilities: params.capabilities
// (initialize) or params._meta's clientCapabilities (stateless).
func appsSetting(t *testing.T, params json.RawMessage, stateless bool) (setting struct {
	MimeTypes []string `json:"mimeTypes"`
}, ok bool) {
	t.Helper()
	var p struct {
		Caps json.RawMessage            `json:"capabilities"`
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		t.Fatalf("params: %v", err)
	}
	caps := p.Caps
	if stateless {
		caps = p.Meta["io.modelcontextprotocol/clientCapabilities"]
	}
	var c struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	_ = json.Unmarshal(caps, &c)
	raw, ok := c.Extensions[apps.ExtensionID]
	if ok {
		if err := json.Unmarshal(raw, &setting); err != nil {
			t.Errorf("the extension's setting is not an object: %s", raw)
		}
	}
	return setting, ok
}
