package protocol

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func codesOf(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Code)
	}
	return out
}

func TestToolNameProblem(t *testing.T) {
	for _, ok := range []string{"getUser", "DATA_EXPORT_v2", "admin.tools.list", strings.Repeat("a", 128)} {
		if p := ToolNameProblem(ok); p != "" {
			t.Errorf("%q: %s", ok, p)
		}
	}
	for _, bad := range []string{"", "get user", "a,b", "naïve", strings.Repeat("a", 129), "x/y"} {
		if ToolNameProblem(bad) == "" {
			t.Errorf("%q passes the naming rules", bad)
		}
	}
}

func TestCheckToolDefinition(t *testing.T) {
	cases := []struct {
		tool string
		rev  Revision
		want []string
	}{
		{`{"name":"ok","description":"d","inputSchema":{"type":"object"}}`, Rev20251125, nil},
		{`{"name":"bad name","description":"d","inputSchema":{"type":"object"}}`, Rev20251125, []string{FindToolName}},
		{`{"name":"bad name","description":"d","inputSchema":{"type":"object"}}`, Rev20250618, nil}, // no rule yet
		{`{"name":"x","description":"d"}`, Rev20251125, []string{FindToolSchema}},
		{`{"name":"x","description":"d","inputSchema":null}`, Rev20251125, []string{FindToolSchema}},
		{`{"name":"x","description":"d","inputSchema":{"type":"string"}}`, Rev20251125, []string{FindToolSchema}},
		{`{"name":"x","description":"d","inputSchema":{"type":"object"},"outputSchema":{}}`, Rev20251125, []string{FindToolSchema}},
		{`{"name":"x","inputSchema":{"type":"object"}}`, Rev20251125, []string{FindToolDescription}},
		{`{"name":"x","description":"d","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":"yes"}}`, Rev20251125, []string{FindToolAnnotations}},
		{`{"name":"x","description":"d","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"destructiveHint":true}}`, Rev20251125, []string{FindToolAnnotations}},
		{`[1]`, Rev20251125, []string{FindToolSchema}},
	}
	for _, c := range cases {
		if got := codesOf(CheckToolDefinition(json.RawMessage(c.tool), c.rev)); !slices.Equal(got, c.want) {
			t.Errorf("%s at %s: %v, want %v", c.tool, c.rev, got, c.want)
		}
	}
}

func TestCheckPromptAndResourceDefinitions(t *testing.T) {
	if got := codesOf(CheckPromptDefinition(json.RawMessage(`{"name":"p","arguments":[{"name":"a"},{"name":"a"},{}]}`))); len(got) != 2 {
		t.Errorf("prompt with a duplicate and a nameless argument: %v", got)
	}
	if got := CheckPromptDefinition(json.RawMessage(`{"name":"p","arguments":[{"name":"a","required":true}]}`)); len(got) != 0 {
		t.Errorf("valid prompt: %v", got)
	}
	if got := CheckResourceDefinition(json.RawMessage(`{"uri":"a://b","name":"b"}`), false); len(got) != 0 {
		t.Errorf("valid resource: %v", got)
	}
	if got := CheckResourceDefinition(json.RawMessage(`{"uriTemplate":"a://{x","name":"b"}`), true); len(got) != 1 {
		t.Errorf("unclosed template: %v", got)
	}
	if got := TemplateVariables("demo://notes/{topic}{?q,lang}{+path*}"); !slices.Equal(got, []string{"topic", "q", "lang", "path"}) {
		t.Errorf("TemplateVariables: %v", got)
	}
}

func TestExpectedErrorAndSpec(t *testing.T) {
	if c, ref := ExpectedError(ErrCaseResourceNotFound, Rev20251125); c != -32002 || ref.Path() != "docs/specification/2025-11-25/server/resources.mdx" {
		t.Errorf("resource not found in 2025-11-25: %d %s", c, ref.Path())
	}
	if c, ref := ExpectedError(ErrCaseResourceNotFound, Rev20260728); c != -32602 || ref.URL() != "https://modelcontextprotocol.io/specification/2026-07-28/server/resources#error-handling" {
		t.Errorf("resource not found in 2026-07-28: %d %s", c, ref.URL())
	}
	if c, ref := ExpectedError(ErrCaseUnknownMethod, Rev20241105); c != -32601 || ref.Page != "basic/messages" {
		t.Errorf("unknown method in 2024-11-05: %d %+v", c, ref)
	}
	if ref := SpecFor(FindCancelIgnored, Rev20260728); ref.Page != "basic/patterns/cancellation" {
		t.Errorf("cancellation in 2026-07-28: %+v", ref)
	}
	if ref := SpecFor(FindToolName, Rev20251125); ref.String() != "2025-11-25 server/tools § Tool Names" {
		t.Errorf("tool names: %q", ref.String())
	}
	for _, code := range []string{FindHandshake, FindPagination, FindToolSchema, FindStructuredContent, FindSlow, FindStderrVolume} {
		if Explain(code) == "" {
			t.Errorf("%s has no explanation", code)
		}
	}
}

// TestSeverityOf: the tables decide a finding's severity, for a code's default and for the
// evidence a caller passes.
func TestSeverityOf(t *testing.T) {
	tests := []struct {
		code string
		ev   Evidence
		want Severity
	}{
		{FindErrorCodeExpected, EvidenceNone, SevWarning},
		{FindErrorCodeExpected, EvidenceNoResponse, SevError},
		{FindErrorCodeExpected, EvidenceForbidden, SevError},
		{FindHandshake, EvidenceNone, SevError},
		{FindHandshake, EvidenceCost, SevInfo},
		{FindHandshake, EvidenceNoResponse, SevError}, // evidence the table does not map: the default
		{FindStderrVolume, EvidenceNone, SevWarning},
		{FindSlow, EvidenceNone, SevInfo}, // a timing is a note, unless asked (--strict-timing)
		{FindStartup, EvidenceNone, SevInfo},
		{FindSlow, EvidenceStrictTiming, SevWarning},
		{FindStartup, EvidenceStrictTiming, SevWarning},
		{FindNotJSON, EvidenceNone, SevError},
		{"no.such-code", EvidenceNone, SevWarning},
	}
	for _, tt := range tests {
		if got := SeverityOf(tt.code, tt.ev); got != tt.want {
			t.Errorf("SeverityOf(%s, %d) = %s, want %s", tt.code, tt.ev, got, tt.want)
		}
		if f := NewFindingOn(tt.code, tt.ev, "m %d", 1); f.Severity != tt.want || f.Message != "m 1" || f.Code != tt.code {
			t.Errorf("NewFindingOn(%s, %d) = %+v", tt.code, tt.ev, f)
		}
	}
	if NewFinding(FindHandshake, "x").Severity != SevError {
		t.Error("NewFinding does not give the code's default")
	}
}
