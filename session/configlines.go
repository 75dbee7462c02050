package session

import (
	"bytes"
	"encoding/json"
)

// configLines is the line (1-based) where each server's entry starts in a config file's
// text, by name, found the way readConfig finds the entries (mcp.servers, servers,
// mcpServers, then projects.PROJECT.mcpServers, a later one winning). data has had its
// comments stripped with the line breaks kept. A text that is not JSON gives what was
// found before the error.
func configLines(data []byte, project string) map[string]int {
	lines := map[string]int{}
	d := json.NewDecoder(bytes.NewReader(data))
	lineAt := func() int { return bytes.Count(data[:d.InputOffset()], []byte("\n")) + 1 }
	// entries reads an object of servers, noting the line of each key.
	var found [4]map[string]int // mcp.servers, servers, mcpServers, the project's
	entries := func(slot int) bool {
		if t, err := d.Token(); err != nil || t != json.Delim('{') {
			return false
		}
		found[slot] = map[string]int{}
		for d.More() {
			t, err := d.Token()
			if err != nil {
				return false
			}
			found[slot][t.(string)] = lineAt()
			if skip(d) != nil {
				return false
			}
		}
		_, err := d.Token()
		return err == nil
	}
	// object walks an object, handing each key to member; member reads the value.
	object := func(member func(key string) bool) bool {
		if t, err := d.Token(); err != nil || t != json.Delim('{') {
			return false
		}
		for d.More() {
			t, err := d.Token()
			if err != nil {
				return false
			}
			if !member(t.(string)) {
				return false
			}
		}
		_, err := d.Token()
		return err == nil
	}
	skipped := func() bool { return skip(d) == nil }
	object(func(key string) bool {
		switch key {
		case "mcpServers":
			return entries(2)
		case "servers":
			return entries(1)
		case "mcp":
			return object(func(k string) bool {
				if k == "servers" {
					return entries(0)
				}
				return skipped()
			})
		case "projects":
			return object(func(k string) bool {
				if k != project || project == "" {
					return skipped()
				}
				return object(func(k string) bool {
					if k == "mcpServers" {
						return entries(3)
					}
					return skipped()
				})
			})
		}
		return skipped()
	})
	for _, m := range found {
		for k, v := range m {
			lines[k] = v
		}
	}
	return lines
}

// skip reads one value, whatever it is.
func skip(d *json.Decoder) error {
	var v json.RawMessage
	return d.Decode(&v)
}
