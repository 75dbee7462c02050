package session

import (
	"maps"
	"testing"
)

// TestConfigLines finds the line each server's entry starts on, in every shape readConfig
// reads, past comments of one line and of several, and keeps what it found before broken
// JSON.
func TestConfigLines(t *testing.T) {
	for _, tc := range []struct {
		name, text, project string
		want                map[string]int
	}{
		{"mcpServers", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"},\n    \"b\": {\n      \"command\": \"y\"\n    }\n  }\n}\n", "",
			map[string]int{"a": 3, "b": 4}},
		{"comments", "// servers\n{\n  /* one\n     two */\n  \"servers\": {\n    // c next\n    \"c\": {\"url\": \"http://h\"}\n  }\n}\n", "",
			map[string]int{"c": 7}},
		{"vscode settings", "{\"editor\": {\"x\": [1, 2]},\n \"mcp\": {\"inputs\": [],\n  \"servers\": {\n   \"d\": {}}}}", "",
			map[string]int{"d": 4}},
		{"claude code project", "{\"mcpServers\": {\"e\": {}},\n\"projects\": {\"/other\": {\"mcpServers\": {\"f\": {}}},\n\"/p\": {\"mcpServers\": {\n\"e\": {}}}}}", "/p",
			map[string]int{"e": 4}},
		{"broken", "{\"mcpServers\": {\n\"g\": {},\n\"h\": ", "", map[string]int{"g": 2, "h": 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := configLines(stripJSONComments([]byte(tc.text)), tc.project); !maps.Equal(got, tc.want) {
				t.Errorf("configLines = %v, want %v", got, tc.want)
			}
		})
	}
}
