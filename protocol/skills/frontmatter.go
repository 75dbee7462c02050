package skills

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// Frontmatter parses the YAML frontmatter at the start of a SKILL.md (between a first
// line "---" and the next line "---"; a byte-order mark and CRLF line ends are accepted)
// into JSON values: mappings become objects, sequences arrays, and scalars take their
// resolved YAML type, except timestamps, which stay the text the author wrote (JSON has no
// date type, so an entry carries them as strings).
func Frontmatter(md []byte) (map[string]any, error) {
	md = bytes.TrimPrefix(md, []byte("\ufeff"))
	first, rest, ok := cutLine(md)
	if !ok || string(bytes.TrimRight(first, " \t")) != "---" {
		return nil, fmt.Errorf("SKILL.md does not begin with a --- line of YAML frontmatter")
	}
	var body []byte
	for found := false; !found; {
		var line []byte
		line, rest, ok = cutLine(rest)
		if string(bytes.TrimRight(line, " \t")) == "---" {
			found = true
			continue
		}
		if !ok {
			return nil, fmt.Errorf("the YAML frontmatter of SKILL.md has no closing --- line")
		}
		body = append(append(body, line...), '\n')
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("the YAML frontmatter of SKILL.md does not parse: %w", err)
	}
	if len(doc.Content) == 0 {
		return map[string]any{}, nil
	}
	budget := maxNodes
	v, err := nodeValue(doc.Content[0], 0, &budget)
	if err != nil {
		return nil, err
	}
	m, isMap := v.(map[string]any)
	if !isMap {
		return nil, fmt.Errorf("the YAML frontmatter of SKILL.md is not a mapping")
	}
	return m, nil
}

// cutLine splits off the first line (without its LF or CRLF); ok is false on the last line.
func cutLine(b []byte) (line, rest []byte, ok bool) {
	line, rest, ok = bytes.Cut(b, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r")), rest, ok
}

// maxDepth bounds the nesting of frontmatter values (and alias chains); maxNodes bounds
// the values made, so aliases cannot expand a small document into a huge one.
const (
	maxDepth = 64
	maxNodes = 100_000
)

func nodeValue(n *yaml.Node, depth int, budget *int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("the YAML frontmatter of SKILL.md nests deeper than %d levels", maxDepth)
	}
	if *budget--; *budget < 0 {
		return nil, fmt.Errorf("the YAML frontmatter of SKILL.md expands to more than %d values", maxNodes)
	}
	switch n.Kind {
	case yaml.AliasNode:
		return nodeValue(n.Alias, depth+1, budget)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := nodeValue(c, depth+1, budget)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, err := nodeValue(n.Content[i+1], depth+1, budget)
			if err != nil {
				return nil, err
			}
			out[n.Content[i].Value] = v
		}
		return out, nil
	}
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		err := n.Decode(&b)
		return b, err
	case "!!int", "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return n.Value, nil // .inf and the like: compared as written
		}
		return f, nil
	}
	return n.Value, nil
}

// CompareFrontmatter compares the frontmatter a skill's entry carries (a JSON object)
// with the frontmatter of the SKILL.md it describes, field by field, and says what differs.
// Nothing is returned when they are the same.
func CompareFrontmatter(entry json.RawMessage, md []byte) []string {
	var want map[string]any
	if err := json.Unmarshal(entry, &want); err != nil {
		return []string{"the entry's frontmatter is not an object"}
	}
	got, err := Frontmatter(md)
	if err != nil {
		return []string{err.Error()}
	}
	// Through JSON, so both sides hold the same Go types.
	b, err := json.Marshal(got)
	if err != nil {
		return []string{"the frontmatter has values JSON cannot hold: " + err.Error()}
	}
	got = nil
	_ = json.Unmarshal(b, &got)
	union := maps.Clone(want)
	maps.Copy(union, got)
	keys := slices.Sorted(maps.Keys(union))
	var out []string
	for _, k := range keys {
		w, inWant := want[k]
		g, inGot := got[k]
		switch {
		case !inGot:
			out = append(out, fmt.Sprintf("field %s is in the entry but not in SKILL.md", strconv.Quote(k)))
		case !inWant:
			out = append(out, fmt.Sprintf("field %s is in SKILL.md but not in the entry", strconv.Quote(k)))
		case !reflect.DeepEqual(w, g):
			out = append(out, fmt.Sprintf("field %s is %s in SKILL.md but %s in the entry", strconv.Quote(k), brief(g), brief(w)))
		}
	}
	return out
}

// brief is a value as short JSON for a message.
func brief(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 120 {
		return string(b[:117]) + "…"
	}
	return string(b)
}
