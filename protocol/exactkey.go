package protocol

import (
	"encoding/json"
	"strings"
)

// Members mcpscope decides on (the method, the id, a request's tool or prompt name, a
// resource's uri) are read by their exact key. Go's encoding/json matches keys without
// regard to case and keeps the last match, so {"name":"a","Name":"b"} decodes as "b" while
// a server that reads keys exactly runs "a": a check, rule or label that used
// encoding/json would judge a different tool than the one the server runs.

// MemberString is the string value of obj's member whose key is exactly key (no case
// folding), the last one when the key is sent twice, as the JSON parsers of servers keep
// it. ok is false when obj is not an object, has no such member or its value is not a
// string.
func MemberString(obj []byte, key string) (string, bool) {
	v, ok := findMember(obj, key)
	if !ok {
		return "", false
	}
	return stringValue(v)
}

// MemberValue is the value, exactly as written, of obj's member whose key is exactly key
// (the last one when sent twice); ok is false when there is none or obj is not an object.
func MemberValue(obj []byte, key string) (json.RawMessage, bool) {
	v, ok := findMember(obj, key)
	return v, ok
}

// MemberValues is MemberValue for several keys in one pass over obj: vals[k] is the value
// of the member keyed exactly keys[k], nil when there is none. It is nil when obj is not an
// object.
func MemberValues(obj []byte, keys ...string) []json.RawMessage {
	vals := make([]json.RawMessage, len(keys))
	_, err := eachMember(obj, skipSpace(obj, 0), func(m member) {
		for k, key := range keys {
			if m.is(key) {
				vals[k] = m.val
			}
		}
	})
	if err != nil {
		return nil
	}
	return vals
}

// AmbiguousKeys names the keys of the JSON object obj that a receiver may read as the same
// member: a key sent twice, or keys that differ only in case (encoding/json folds them).
// Each name is listed once, as first written; nil when there is none or obj is not an
// object.
func AmbiguousKeys(obj []byte) []string {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return nil
	}
	var (
		seen  map[string]string // folded key → first key
		clash []string
		named map[string]bool
	)
	_, _ = eachMember(obj, i, func(m member) {
		k := m.name()
		f := strings.ToLower(strings.ToUpper(k)) // K (Kelvin) and ſ fold too
		if seen == nil {
			seen = make(map[string]string, 4)
		}
		first, dup := seen[f]
		if !dup {
			seen[f] = k
			return
		}
		if named == nil {
			named = map[string]bool{}
		}
		if !named[first] {
			named[first] = true
			clash = append(clash, first)
		}
	})
	return clash
}

// Target is what a request acts on, read by exact key: the tool or prompt name of
// tools/call and prompts/get, the uri of resources/read, resources/subscribe and
// resources/unsubscribe; "" for other methods or when the member is absent.
func Target(method string, params []byte) string {
	var key string
	switch method {
	case "tools/call", "prompts/get":
		key = "name"
	case "resources/read", "resources/subscribe", "resources/unsubscribe":
		key = "uri"
	default:
		return ""
	}
	s, _ := MemberString(params, key)
	return s
}
