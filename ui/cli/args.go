package cli

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// buildArgs assembles tool arguments from --args JSON and key=value / key:=JSON words.
// key=value values are typed by the property's type in schema (the tool's inputSchema):
// numbers and booleans are parsed, objects and arrays read as JSON, strings kept verbatim.
// Without a type to go by, a value that parses as JSON is sent as that JSON, else as a string.
func buildArgs(jsonArgs string, words []string, schema json.RawMessage) (map[string]any, error) {
	args := map[string]any{}
	if jsonArgs != "" {
		if err := json.Unmarshal([]byte(jsonArgs), &args); err != nil {
			return nil, fmt.Errorf("--args: not a JSON object: %w", err)
		}
	}
	props := schemaProperties(schema)
	for _, w := range words {
		if k, v, ok := strings.Cut(w, ":="); ok && !strings.Contains(k, "=") {
			var raw json.RawMessage
			if err := json.Unmarshal([]byte(v), &raw); err != nil {
				return nil, fmt.Errorf("argument %s: %q is not JSON: %w", k, v, err)
			}
			args[k] = raw
			continue
		}
		k, v, ok := strings.Cut(w, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("argument %q: want key=value or key:=JSON", w)
		}
		val, err := typedValue(v, props[k])
		if err != nil {
			return nil, fmt.Errorf("argument %s: %w", k, err)
		}
		args[k] = val
	}
	return args, nil
}

func schemaProperties(schema json.RawMessage) map[string][]string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal(schema, &s)
	out := map[string][]string{}
	for name, raw := range s.Properties {
		var p struct {
			Type json.RawMessage `json:"type"`
		}
		_ = json.Unmarshal(raw, &p)
		var one string
		var many []string
		if json.Unmarshal(p.Type, &one) == nil && one != "" {
			out[name] = []string{one}
		} else if json.Unmarshal(p.Type, &many) == nil {
			out[name] = many
		}
	}
	return out
}

func typedValue(v string, types []string) (any, error) {
	has := func(t string) bool {
		for _, x := range types {
			if x == t {
				return true
			}
		}
		return false
	}
	if has("null") && v == "null" {
		return nil, nil
	}
	switch {
	case has("string"):
		return v, nil
	case has("integer"):
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", v)
		}
		return n, nil
	case has("number"):
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return nil, fmt.Errorf("%q is not a number", v)
		}
		return json.Number(v), nil
	case has("boolean"):
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("%q is not a boolean (true or false)", v)
		}
		return b, nil
	case has("object"), has("array"):
		var raw json.RawMessage
		if err := json.Unmarshal([]byte(v), &raw); err != nil {
			return nil, fmt.Errorf("%q is not JSON: %w", v, err)
		}
		return raw, nil
	}
	var raw json.RawMessage
	if json.Unmarshal([]byte(v), &raw) == nil {
		return raw, nil
	}
	return v, nil
}
