package protocol

import (
	"strings"
	"testing"
)

func TestCheckDiscoverResult(t *testing.T) {
	valid := `{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"resultType":"complete","ttlMs":0,"cacheScope":"private"}`
	tests := []struct {
		name   string
		result string
		want   []string // substrings of the findings, in order; none for a valid result
	}{
		{"valid", valid, nil},
		{"valid public with extras", `{"supportedVersions":[],"capabilities":{},"resultType":"complete","ttlMs":60000,"cacheScope":"public","instructions":"x","_meta":{}}`, nil},
		{"empty object (the conformance suite's legacy servers)", `{}`, []string{
			"supportedVersions is missing", "capabilities is missing", "resultType is missing", "ttlMs is missing", "cacheScope is missing"}},
		{"not an object", `[]`, []string{"not an object"}},
		{"versions not strings", strings.Replace(valid, `["2026-07-28"]`, `["2026-07-28",5]`, 1), []string{"supportedVersions item 1 is a number"}},
		{"capabilities null", strings.Replace(valid, `{"tools":{}}`, `null`, 1), []string{"capabilities is a null"}},
		{"negative ttl", strings.Replace(valid, `"ttlMs":0`, `"ttlMs":-1`, 1), []string{"ttlMs is -1"}},
		{"fractional ttl", strings.Replace(valid, `"ttlMs":0`, `"ttlMs":1.5`, 1), []string{"ttlMs is 1.5, not an integer"}},
		{"unknown cache scope", strings.Replace(valid, `"private"`, `"shared"`, 1), []string{`cacheScope is "shared"`}},
		{"resultType not a string", strings.Replace(valid, `"complete"`, `1`, 1), []string{"resultType is a number"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := CheckDiscoverResult([]byte(tc.result))
			if len(got) != len(tc.want) {
				t.Fatalf("%d findings %v, want %d (%v)", len(got), got, len(tc.want), tc.want)
			}
			for i, f := range got {
				if f.Code != FindDiscoverResult || !strings.Contains(f.Message, tc.want[i]) {
					t.Errorf("finding %d = %s %q, want %s containing %q", i, f.Code, f.Message, FindDiscoverResult, tc.want[i])
				}
			}
		})
	}
}
