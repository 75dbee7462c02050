package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/ui/form"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// buildArgs assembles tool arguments from --args JSON and key=value / key:=JSON words, as
// one JSON object: --args keeps its members' order and its values' bytes (a number is sent
// exactly as written, never through a float), and each word replaces or adds a member.
// key=value values are typed by the property's type in schema (the tool's inputSchema):
// numbers and booleans are checked, objects and arrays read as JSON, strings kept verbatim.
// Without a type to go by, a value that parses as JSON is sent as that JSON, else as a
// string. A dotted key (shipping.method=pickup) names a nested member, unless the schema
// has a property with that very name.
func buildArgs(jsonArgs string, words []string, schema json.RawMessage) (json.RawMessage, error) {
	obj := json.RawMessage(`{}`)
	if strings.TrimSpace(jsonArgs) != "" {
		if _, ok := protocol.ObjectMembers([]byte(jsonArgs)); !ok || !json.Valid([]byte(jsonArgs)) {
			return nil, fmt.Errorf("--args: not a JSON object: %.80s", jsonArgs)
		}
		obj = json.RawMessage(strings.TrimSpace(jsonArgs))
	}
	for _, w := range words {
		var (
			k   string
			raw json.RawMessage
		)
		if key, v, ok := strings.Cut(w, ":="); ok && !strings.Contains(key, "=") {
			if !json.Valid([]byte(v)) {
				return nil, fmt.Errorf("argument %s: %q is not JSON", key, v)
			}
			k, raw = key, json.RawMessage(v)
		} else {
			key, v, ok := strings.Cut(w, "=")
			if !ok || key == "" {
				return nil, fmt.Errorf("argument %q: want key=value or key:=JSON", w)
			}
			var err error
			if raw, err = typedValue(v, propertyTypes(schema, argPath(schema, key))); err != nil {
				return nil, fmt.Errorf("argument %s: %w", key, err)
			}
			k = key
		}
		var err error
		if obj, err = setMember(obj, argPath(schema, k), raw); err != nil {
			return nil, fmt.Errorf("argument %s: %w", k, err)
		}
	}
	return obj, nil
}

// maxArgProblems bounds the problems warnArgs lists.
const maxArgProblems = 10

// warnArgs says on stderr how args fail the tool's inputSchema (nil: not known). What was
// typed is sent all the same: exercising a server's handling of bad input is part of
// inspecting it, and the server has the last word.
func (r *runner) warnArgs(tool string, schema, args json.RawMessage) {
	if len(schema) == 0 {
		return
	}
	probs := form.Check(schema, args)
	if len(probs) == 0 {
		return
	}
	mask := r.flags.screenMasker(r.command) // a problem may quote a value the command line gave
	if len(probs) == 1 && probs[0].Pointer == "" && strings.HasPrefix(probs[0].Message, "the schema cannot be checked") {
		fmt.Fprintf(r.stderr, "mcpscope: warning: %s's inputSchema: %s\n", tool, mask.String(probs[0].Message))
		return
	}
	fmt.Fprintf(r.stderr, "mcpscope: warning: the arguments fail %s's inputSchema (%s); sending them as typed\n", tool, textfmt.Plural(len(probs), "problem"))
	for i, p := range probs {
		if i == maxArgProblems {
			fmt.Fprintf(r.stderr, "mcpscope:   … and %d more\n", len(probs)-i)
			break
		}
		fmt.Fprintf(r.stderr, "mcpscope:   %s\n", mask.String(p.String()))
	}
}

// argsMap is args decoded for a caller that needs a map, numbers kept as written.
func argsMap(args json.RawMessage) map[string]any {
	m := map[string]any{}
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	_ = d.Decode(&m)
	return m
}

// argPath is the member path a word's key names: the key itself when the schema has a
// property of that name or the key has no dot, else its dotted parts.
func argPath(schema json.RawMessage, key string) []string {
	if !strings.Contains(key, ".") || len(propertySchema(schema, []string{key})) > 0 {
		return []string{key}
	}
	return strings.Split(key, ".")
}

// propertySchema is the schema of the member at path, through "properties"; nil when
// the schema does not say.
func propertySchema(schema json.RawMessage, path []string) json.RawMessage {
	cur := schema
	for _, p := range path {
		props, ok := protocol.MemberValue(cur, "properties")
		if !ok {
			return nil
		}
		if cur, ok = protocol.MemberValue(props, p); !ok {
			return nil
		}
	}
	return cur
}

// propertyTypes are the JSON types the schema gives the member at path.
func propertyTypes(schema json.RawMessage, path []string) []string {
	t, ok := protocol.MemberValue(propertySchema(schema, path), "type")
	if !ok {
		return nil
	}
	var one string
	var many []string
	if json.Unmarshal(t, &one) == nil && one != "" {
		return []string{one}
	}
	_ = json.Unmarshal(t, &many)
	return many
}

// setMember sets the member at path of the JSON object obj to val, replacing it where it
// is (every copy of a key sent twice) or adding it at the end; the objects on the way are
// made when absent.
func setMember(obj json.RawMessage, path []string, val json.RawMessage) (json.RawMessage, error) {
	ms, ok := protocol.ObjectMembers(obj)
	if !ok {
		return nil, fmt.Errorf("%s is not an object", strings.Join(path[:1], "."))
	}
	found := false
	for i := range ms {
		if ms[i].Key != path[0] {
			continue
		}
		found = true
		if len(path) == 1 {
			ms[i].Value = val
			continue
		}
		child, err := setMember(ms[i].Value, path[1:], val)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path[0], err)
		}
		ms[i].Value = child
	}
	if !found {
		v := val
		if len(path) > 1 {
			var err error
			if v, err = setMember(json.RawMessage(`{}`), path[1:], val); err != nil {
				return nil, err
			}
		}
		ms = append(ms, protocol.Member{Key: path[0], Value: v})
	}
	return protocol.EncodeObject(ms), nil
}

var (
	jsonInteger = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)
	jsonNumber  = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)
)

// typedValue is v as the JSON of the first of types that takes it. Numbers are sent as
// typed, digit for digit.
func typedValue(v string, types []string) (json.RawMessage, error) {
	has := func(t string) bool {
		for _, x := range types {
			if x == t {
				return true
			}
		}
		return false
	}
	if has("null") && v == "null" {
		return json.RawMessage("null"), nil
	}
	switch {
	case has("string"):
		return protocol.Marshal(v)
	case has("integer"):
		if !jsonInteger.MatchString(v) {
			return nil, fmt.Errorf("%q is not an integer", v)
		}
		return json.RawMessage(v), nil
	case has("number"):
		if !jsonNumber.MatchString(v) {
			return nil, fmt.Errorf("%q is not a number", v)
		}
		return json.RawMessage(v), nil
	case has("boolean"):
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("%q is not a boolean (true or false)", v)
		}
		return json.RawMessage(strconv.FormatBool(b)), nil
	case has("object"), has("array"):
		if !json.Valid([]byte(v)) {
			return nil, fmt.Errorf("%q is not JSON", v)
		}
		return json.RawMessage(v), nil
	}
	if json.Valid([]byte(v)) {
		return json.RawMessage(v), nil
	}
	return protocol.Marshal(v)
}
