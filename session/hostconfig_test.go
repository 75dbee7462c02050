package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestListServers reads every host's file from a home, a config directory and a project
// laid out as the hosts do: Cursor's mcpServers, VS Code's servers with comments, Claude
// Code's ~/.claude.json with the project's own servers, a file that cannot be parsed, and
// the places that do not exist.
func TestListServers(t *testing.T) {
	root := t.TempDir()
	home, config, project := filepath.Join(root, "home"), filepath.Join(root, "config"), filepath.Join(root, "project")
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(home, ".cursor", "mcp.json"), `{"mcpServers":{"b-files":{"command":"npx","args":["-y","server-filesystem","/tmp"]},"a-remote":{"url":"https://example.com/mcp","type":"streamable-http"}}}`)
	write(filepath.Join(config, "Code", "User", "mcp.json"), "{\n // a comment\n \"servers\": {\"memory\": {\"type\": \"stdio\", \"command\": \"node\", \"args\": [\"m.js\"]}}}")
	write(filepath.Join(home, ".claude.json"), `{"mcpServers":{"user-one":{"command":"u"}},"projects":{"`+project+`":{"mcpServers":{"proj-one":{"command":"p"}}},"/elsewhere":{"mcpServers":{"other":{"command":"o"}}}}}`)
	write(filepath.Join(project, ".mcp.json"), `{"mcpServers": {`)

	places := HostPlaces(home, config, project)
	hosts := map[string]int{}
	for _, p := range places {
		hosts[p.Host]++
	}
	if hosts["Claude Desktop"] != 1 || hosts["Cursor"] != 2 || hosts["VS Code"] != 2 || hosts["Claude Code"] != 2 {
		t.Fatalf("places by host: %v", hosts)
	}
	if places[0].Path != filepath.Join(config, "Claude", "claude_desktop_config.json") {
		t.Errorf("Claude Desktop's file: %s", places[0].Path)
	}

	got, errs := ListServers(places, project)
	var names []string
	for _, cs := range got {
		names = append(names, cs.Source.Host+"/"+cs.Name)
	}
	want := "Cursor/a-remote Cursor/b-files VS Code/memory Claude Code/proj-one Claude Code/user-one"
	if strings.Join(names, " ") != want {
		t.Errorf("servers: %q, want %q", strings.Join(names, " "), want)
	}
	if len(errs) != 1 || errs[filepath.Join(project, ".mcp.json")] == nil {
		t.Errorf("errors: %v (want the broken .mcp.json only)", errs)
	}
	for _, cs := range got {
		switch cs.Name {
		case "a-remote":
			if cs.Spec.URL != "https://example.com/mcp" || cs.Spec.Transport != "http" {
				t.Errorf("a-remote: %+v", cs.Spec)
			}
		case "b-files":
			if strings.Join(cs.Spec.Command, " ") != "npx -y server-filesystem /tmp" || cs.Source.Path != filepath.Join(home, ".cursor", "mcp.json") {
				t.Errorf("b-files: %+v from %s", cs.Spec, cs.Source.Path)
			}
		}
	}

	none, errs := ListServers(HostPlaces(filepath.Join(root, "empty"), "", ""), "")
	if len(none) != 0 || len(errs) != 0 {
		t.Errorf("an empty home: %v %v", none, errs)
	}
}
