package protocol

import (
	"encoding/json"
	"fmt"
)

// CheckDiscoverResult checks a server/discover result against the 2026-07-28 schema's
// DiscoverResult: supportedVersions (an array of strings), capabilities (an object),
// resultType (a string), ttlMs (an integer ≥ 0) and cacheScope ("private" or "public") are
// required. It returns one FindDiscoverResult finding per problem; none means the result is
// a valid DiscoverResult, which is what identifies a server of the modern era.
func CheckDiscoverResult(result json.RawMessage) []Finding {
	if len(result) == 0 || result[0] != '{' {
		return []Finding{NewFinding(FindDiscoverResult, "server/discover result is not an object")}
	}
	var out []Finding
	bad := func(format string, args ...any) {
		out = append(out, NewFinding(FindDiscoverResult, "server/discover result: "+format, args...))
	}
	for _, field := range []struct {
		name  string
		check func(json.RawMessage) string
	}{
		{"supportedVersions", stringArray},
		{"capabilities", wantType("object")},
		{"resultType", wantType("string")},
		{"ttlMs", nonNegativeInteger},
		{"cacheScope", cacheScope},
	} {
		v, ok := findMember(result, field.name)
		if !ok {
			bad("%s is missing (required)", field.name)
			continue
		}
		if why := field.check(v); why != "" {
			bad("%s %s", field.name, why)
		}
	}
	return out
}

func wantType(t string) func(json.RawMessage) string {
	return func(v json.RawMessage) string {
		if got := JSONType(v); got != t {
			return fmt.Sprintf("is a %s, not a %s", got, t)
		}
		return ""
	}
}

func stringArray(v json.RawMessage) string {
	var list []json.RawMessage
	if JSONType(v) != "array" || json.Unmarshal(v, &list) != nil {
		return fmt.Sprintf("is a %s, not an array of strings", JSONType(v))
	}
	for i, el := range list {
		if JSONType(el) != "string" {
			return fmt.Sprintf("item %d is a %s, not a string", i, JSONType(el))
		}
	}
	return ""
}

func nonNegativeInteger(v json.RawMessage) string {
	var n json.Number
	if JSONType(v) != "number" || json.Unmarshal(v, &n) != nil {
		return fmt.Sprintf("is a %s, not an integer", JSONType(v))
	}
	i, err := n.Int64()
	switch {
	case err != nil:
		return fmt.Sprintf("is %s, not an integer", n)
	case i < 0:
		return fmt.Sprintf("is %d; it must not be negative", i)
	}
	return ""
}

func cacheScope(v json.RawMessage) string {
	s, ok := stringValue(v)
	switch {
	case !ok:
		return fmt.Sprintf("is a %s, not a string", JSONType(v))
	case s != "private" && s != "public":
		return fmt.Sprintf("is %q, not \"private\" or \"public\"", s)
	}
	return ""
}
