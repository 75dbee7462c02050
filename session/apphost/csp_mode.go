package apphost

import (
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/protocol/apps"
)

// The view's policy is built one of two ways (Config.CSP):
//
//   - CSPStrict (the default): the spec's, from the resource's declaration (apps.CSP.Policy;
//     DefaultCSP when it declares none). No eval, no blob: or data: scripts, no workers: an
//     app that needs them fails here as it would on a host that follows the spec's default.
//   - CSPReference: the policy of the ext-apps reference host (examples/basic-host, its
//     buildCspHeader): 'unsafe-eval', blob: and data: scripts, blob: workers, 'self' for
//     connections, the declared domains added. An app that runs there but not under strict
//     needs what the spec's default forbids; the app lane's CSP findings say what.
//
// Both leave out the sources CheckCSP refuses, and both add object-src 'none' and webrtc
// 'block'.
const (
	CSPStrict    = "strict"
	CSPReference = "reference"
)

// CSPModes are the accepted values of Config.CSP, for flags and their help.
var CSPModes = []string{CSPStrict, CSPReference}

// checkCSPMode refuses a mode that is neither (an empty one is strict).
func checkCSPMode(mode string) error {
	switch mode {
	case "", CSPStrict, CSPReference:
		return nil
	}
	return fmt.Errorf("--csp %q: want %s", mode, strings.Join(CSPModes, " or "))
}

// ReferencePolicy is the reference host's policy for the declaration c (nil: none
// declared), in the directives' order there.
func ReferencePolicy(c *apps.CSP) string {
	if c == nil {
		c = &apps.CSP{}
	}
	with := func(base string, extra []string) string {
		return strings.TrimSpace(base + " " + strings.Join(extra, " "))
	}
	res := c.ResourceDomains
	frame, base := "frame-src 'none'", "base-uri 'none'"
	if len(c.FrameDomains) > 0 {
		frame = with("frame-src", c.FrameDomains)
	}
	if len(c.BaseURIDomains) > 0 {
		base = with("base-uri", c.BaseURIDomains)
	}
	return strings.Join([]string{
		"default-src 'self' 'unsafe-inline'",
		with("script-src 'self' 'unsafe-inline' 'unsafe-eval' blob: data:", res),
		with("style-src 'self' 'unsafe-inline' blob: data:", res),
		with("img-src 'self' data: blob:", res),
		with("font-src 'self' data: blob:", res),
		with("media-src 'self' data: blob:", res),
		with("connect-src 'self'", c.ConnectDomains),
		with("worker-src 'self' blob:", res),
		frame,
		"object-src 'none'",
		base,
	}, "; ")
}
