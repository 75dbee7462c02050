package session

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/transport"
)

func TestRedirectFindings(t *testing.T) {
	cases := []struct {
		r     *transport.Redirect
		codes string
		text  string
	}{
		{nil, "", ""},
		{&transport.Redirect{Location: "http://b/mcp", Followed: true}, "", ""},
		{&transport.Redirect{Location: "http://b/mcp", CrossOrigin: true, Followed: true, Withheld: []string{"Authorization", "X-Api-Key"}},
			protocol.FindRedirectWithheld, "not sent there: Authorization, X-Api-Key"},
		{&transport.Redirect{Location: "http://b/mcp", CrossOrigin: true, Followed: true, Forwarded: []string{"Authorization"}},
			protocol.FindRedirectForwarded, "sent there"},
		{&transport.Redirect{NotFollowed: "the answer has no Location header"}, protocol.FindRedirectNotFollowed, "redirect to nowhere not followed"},
	}
	for i, c := range cases {
		fs := redirectFindings(c.r)
		var codes []string
		for _, f := range fs {
			codes = append(codes, f.Code)
		}
		if strings.Join(codes, ",") != c.codes || (c.text != "" && !strings.Contains(fs[0].Message, c.text)) {
			t.Errorf("case %d: %+v", i, fs)
		}
	}
	e := &Event{Kind: EvHTTP, HTTP: &transport.HTTPExchange{Method: "POST", URL: "http://a/mcp", Status: 307, Redirect: cases[2].r},
		Findings: redirectFindings(cases[2].r)}
	if j := e.JSON(); len(j.Findings) != 1 || j.HTTP.Redirect == nil || j.HTTP.Redirect.Location != "http://b/mcp" {
		t.Errorf("JSON = %+v", j)
	}
	if s := e.Summary(); !strings.Contains(s, "→ http://b/mcp") || !strings.Contains(s, protocol.FindRedirectWithheld) {
		t.Errorf("Summary = %q", s)
	}
}
