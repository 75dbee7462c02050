package session

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// ConfigSource is a config file a host keeps its MCP servers in.
type ConfigSource struct {
	Host string // "Claude Desktop", "Cursor", "VS Code", "Claude Code", or "--config"
	Path string
}

// ConfiguredServer is one server of a config file.
type ConfiguredServer struct {
	Source ConfigSource
	Name   string
	Spec   ServerSpec
	Line   int // where its entry starts in the file (1-based; 0 unknown)
}

// HostPlaces are where the hosts keep their config files: the documented locations of
// Claude Desktop, Cursor (global and project), VS Code (user profile and workspace) and
// Claude Code (~/.claude.json with its per-project servers, and the project's .mcp.json).
// home is the user's home directory; config the per-user config directory
// (os.UserConfigDir: $XDG_CONFIG_HOME or ~/.config, ~/Library/Application Support,
// %AppData%), which is where the per-system paths differ; cwd the project directory.
func HostPlaces(home, config, cwd string) []ConfigSource {
	var out []ConfigSource
	add := func(host string, parts ...string) { out = append(out, ConfigSource{host, filepath.Join(parts...)}) }
	if config != "" {
		add("Claude Desktop", config, "Claude", "claude_desktop_config.json")
	}
	if home != "" {
		add("Cursor", home, ".cursor", "mcp.json")
	}
	if cwd != "" {
		add("Cursor", cwd, ".cursor", "mcp.json")
	}
	if config != "" {
		add("VS Code", config, "Code", "User", "mcp.json")
	}
	if cwd != "" {
		add("VS Code", cwd, ".vscode", "mcp.json")
	}
	if home != "" {
		add("Claude Code", home, ".claude.json")
	}
	if cwd != "" {
		add("Claude Code", cwd, ".mcp.json")
	}
	return out
}

// DefaultHostPlaces are HostPlaces for this user, this system and the working directory.
func DefaultHostPlaces() []ConfigSource {
	home, _ := os.UserHomeDir()
	config, _ := os.UserConfigDir()
	cwd, _ := os.Getwd()
	return HostPlaces(home, config, cwd)
}

// ListServers reads every server of the config files that exist among places, in the
// order of places and by name within a file. A file that does not exist is skipped; one
// that cannot be read or parsed is reported in errs (by its path) and the others are
// still read. cwd selects Claude Code's per-project servers in ~/.claude.json.
func ListServers(places []ConfigSource, cwd string) (servers []ConfiguredServer, errs map[string]error) {
	seen := map[string]bool{}
	for _, src := range places {
		if seen[src.Path] {
			continue
		}
		seen[src.Path] = true
		all, err := readConfig(src.Path, cwd)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			if errs == nil {
				errs = map[string]error{}
			}
			errs[src.Path] = err
			continue
		}
		names := make([]string, 0, len(all))
		for k := range all {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, n := range names {
			servers = append(servers, ConfiguredServer{Source: src, Name: n, Spec: all[n].spec(n), Line: all[n].line})
		}
	}
	return servers, errs
}
