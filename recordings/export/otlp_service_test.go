package export

import (
	"testing"

	"github.com/mcpscope/mcpscope/recordings"
)

// The service is named as the OpenTelemetry SDKs name it: --service-name, then
// OTEL_SERVICE_NAME, then service.name in OTEL_RESOURCE_ATTRIBUTES, and only then
// mcpscope's default (the recording's or tap's name).
func TestServiceName(t *testing.T) {
	h := recordings.Header{Name: "tapname", Server: "srv", Transport: "stdio"}
	for _, c := range []struct {
		option, env, attrs, want string
	}{
		{"", "", "", "tapname"},
		{"", "", "service.name=from-attrs,team=x", "from-attrs"},
		{"", "from-env", "service.name=from-attrs", "from-env"},
		{"from-flag", "from-env", "service.name=from-attrs", "from-flag"},
	} {
		t.Setenv("OTEL_SERVICE_NAME", c.env)
		t.Setenv("OTEL_RESOURCE_ATTRIBUTES", c.attrs)
		b := batchOf(h, OTLPOptions{ServiceName: c.option})
		got := ""
		for _, a := range b.resource {
			if a.key == "service.name" {
				got = a.s
			}
		}
		if got != c.want {
			t.Errorf("option %q, OTEL_SERVICE_NAME %q, OTEL_RESOURCE_ATTRIBUTES %q: service.name %q, want %q", c.option, c.env, c.attrs, got, c.want)
		}
	}
}
