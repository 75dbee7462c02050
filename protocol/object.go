package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Member is one member of a JSON object: its decoded name and its value exactly as written.
type Member struct {
	Key   string
	Value json.RawMessage
}

// ObjectMembers splits a JSON object into its members, in order, keeping each value's
// bytes. ok is false when raw is not exactly one well-formed object (surrounding space
// allowed), so a caller that rewrites objects leaves anything else as it is.
func ObjectMembers(raw []byte) (members []Member, ok bool) {
	i := skipSpace(raw, 0)
	end, err := eachMember(raw, i, func(m member) {
		members = append(members, Member{Key: m.name(), Value: m.val})
	})
	if err != nil || skipSpace(raw, end) != len(raw) {
		return nil, false
	}
	return members, true
}

// OrderedObject decodes a JSON object into its keys, in the order they were sent, and
// their values. A key sent twice keeps its first place and its last value, as
// encoding/json would decode it. It fails when raw is not exactly one object.
func OrderedObject(raw []byte) ([]string, map[string]json.RawMessage, error) {
	ms, ok := ObjectMembers(raw)
	if !ok {
		return nil, nil, errors.New("not a JSON object")
	}
	var keys []string
	obj := make(map[string]json.RawMessage, len(ms))
	for _, m := range ms {
		if _, dup := obj[m.Key]; !dup {
			keys = append(keys, m.Key)
		}
		obj[m.Key] = m.Value
	}
	return keys, obj, nil
}

// EncodeObject writes members back as a compact JSON object, values as they are.
func EncodeObject(members []Member) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := Marshal(m.Key) // a string: cannot fail; & < > kept
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.Value)
	}
	b.WriteByte('}')
	return b.Bytes()
}
