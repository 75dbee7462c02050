package apps

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestToolLinkOf(t *testing.T) {
	cases := []struct {
		meta             string
		ok, app, appOnly bool
		flat, model      bool
		unknown          []string
	}{
		{meta: ``},
		{meta: `{"other":1}`},
		{meta: `{"ui":{"resourceUri":"ui://a/b"}}`, ok: true, app: true, model: true},
		{meta: `{"ui":{"resourceUri":"ui://a/b","visibility":["app"]}}`, ok: true, app: true, appOnly: true},
		{meta: `{"ui/resourceUri":"ui://old"}`, ok: true, app: true, flat: true, model: true},
		{meta: `{"ui":{"resourceUri":"ui://new"},"ui/resourceUri":"ui://old"}`, ok: true, app: true, model: true},
		{meta: `{"ui":{"visibility":["model","agent"]}}`, ok: true, model: true, unknown: []string{"agent"}},
	}
	for _, c := range cases {
		l, ok := ToolLinkOf(json.RawMessage(c.meta))
		if ok != c.ok || l.HasApp() != c.app || l.AppOnly() != c.appOnly || l.Flat != c.flat ||
			(ok && l.ModelVisible() != c.model) || !reflect.DeepEqual(l.UnknownVisibility(), c.unknown) {
			t.Errorf("%s: got %+v ok=%v", c.meta, l, ok)
		}
	}
	if l, _ := ToolLinkOf(json.RawMessage(`{"ui":{"visibility":"app"}}`)); !l.VisibilityBad {
		t.Errorf("a visibility that is not an array must be flagged: %+v", l)
	}
}

func TestResourceMetaOf(t *testing.T) {
	r, ok, err := ResourceMetaOf(json.RawMessage(`{"ui":{"csp":{"connectDomains":["https://api.example.com"]},
		"permissions":{"microphone":{},"camera":{}},"domain":"x.example","prefersBorder":false}}`))
	if !ok || err != nil || r.CSP == nil || r.CSP.ConnectDomains[0] != "https://api.example.com" ||
		!reflect.DeepEqual(r.Permissions, []string{"microphone", "camera"}) || r.Domain != "x.example" ||
		r.PrefersBorder == nil || *r.PrefersBorder {
		t.Fatalf("got %+v ok=%v err=%v", r, ok, err)
	}
	if _, ok, _ := ResourceMetaOf(json.RawMessage(`{"other":{}}`)); ok {
		t.Error("no _meta.ui must read as absent")
	}
	if _, _, err := ResourceMetaOf(json.RawMessage(`{"ui":{"csp":"x"}}`)); err == nil {
		t.Error("a csp that is not an object must be an error")
	}
}

func TestPolicy(t *testing.T) {
	var none *CSP
	if none.Policy() != DefaultCSP {
		t.Errorf("no csp must give the spec's restrictive default, got %q", none.Policy())
	}
	p := (&CSP{ConnectDomains: []string{"https://api.example.com"}, ResourceDomains: []string{"https://cdn.example.com"}}).Policy()
	for _, want := range []string{"connect-src https://api.example.com", "script-src 'self' 'unsafe-inline' https://cdn.example.com",
		"frame-src 'none'", "base-uri 'self'", "default-src 'none'"} {
		if !strings.Contains(p, want) {
			t.Errorf("policy %q lacks %q", p, want)
		}
	}
}
