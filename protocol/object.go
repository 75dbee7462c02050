package protocol

import (
	"bytes"
	"encoding/json"
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
