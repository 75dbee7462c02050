package protocol

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// ServerTools is one configured server's tools/list, for the rules across servers.
type ServerTools struct {
	Server string
	Tools  []json.RawMessage
}

// CrossFinding is a finding of the rules across servers: the server it is reported on,
// and the place in that server's tools/list.
type CrossFinding struct {
	ContentFinding
	Server string
}

// CheckAcrossServers applies the rules that need several servers: a tool name two servers
// share (reported on each, naming the others: a host merging their lists cannot tell them
// apart), and a description of one server naming a tool of another. For the second rule a
// name that looks like an identifier (a '_', '-', '.', a digit or an inner capital:
// "read_file", "getUser") counts wherever it is; a plain word ("fetch") only quoted,
// backticked or followed by "tool" (references), so that the word search is not the tool.
func CheckAcrossServers(servers []ServerTools) []CrossFinding {
	type place struct {
		server, index int
		name          string
	}
	byName := map[string][]place{}
	descs := make([][]string, len(servers))
	for si, s := range servers {
		descs[si] = make([]string, len(s.Tools))
		for ti, raw := range s.Tools {
			var t struct {
				Name        string `json:"name"`
				Description string `json:"description"`
			}
			_ = json.Unmarshal(raw, &t)
			descs[si][ti] = t.Description
			if t.Name != "" {
				byName[t.Name] = append(byName[t.Name], place{si, ti, t.Name})
			}
		}
	}
	var out []CrossFinding
	add := func(server int, pointer, code, format string, args ...any) {
		out = append(out, CrossFinding{Server: servers[server].Server,
			ContentFinding: ContentFinding{Finding: NewFinding(code, format, args...), Pointer: pointer}})
	}
	for si, s := range servers {
		for ti, raw := range s.Tools {
			var t struct {
				Name string `json:"name"`
			}
			_ = json.Unmarshal(raw, &t)
			var others []string
			for _, p := range byName[t.Name] {
				if p.server != si && !contains(others, servers[p.server].Server) {
					others = append(others, servers[p.server].Server)
				}
			}
			pointer := "/tools/" + strconv.Itoa(ti)
			if len(others) > 0 {
				add(si, pointer+"/name", FindToolShadowed, "%s/name: tool %q is also offered by %s", pointer, t.Name, quoteList(others))
			}
			seen := map[string]bool{}
			for _, w := range references(descs[si][ti]) {
				if seen[w] {
					continue
				}
				seen[w] = true
				mine := false
				var owners []string
				for _, p := range byName[w] {
					if p.server == si {
						mine = true
					} else if !contains(owners, servers[p.server].Server) {
						owners = append(owners, servers[p.server].Server)
					}
				}
				if !mine && len(owners) > 0 {
					add(si, pointer+"/description", FindToolCrossReference, "%s/description of tool %q names tool %q of %s",
						pointer, t.Name, w, quoteList(owners))
				}
			}
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	what := "server "
	if len(names) > 1 {
		what = "servers "
	}
	return what + strings.Join(q, ", ")
}

// identifierLike reports whether a word looks like a tool name rather than an English word.
func identifierLike(w string) bool {
	if len(w) < 3 {
		return false
	}
	for i, c := range w {
		if c == '_' || c == '-' || c == '.' || c >= '0' && c <= '9' || i > 0 && c >= 'A' && c <= 'Z' {
			return true
		}
	}
	return false
}

// String is "server: message", for tests and logs.
func (f CrossFinding) String() string { return fmt.Sprintf("%s: %s", f.Server, f.Message) }
