package skills

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// BenchmarkVerify16MiB verifies a SKILL.md as large as a skill may be in all: size,
// SHA-256 and frontmatter.
func BenchmarkVerify16MiB(b *testing.B) {
	head := "---\nname: big\ndescription: a skill at the size limit\n---\n"
	data := append([]byte(head), bytes.Repeat([]byte("x"), MaxTotalBytes-len(head))...)
	s := Parse(json.RawMessage(fmt.Sprintf(`{"uri":"skill://big/SKILL.md","frontmatter":{"name":"big","description":"a skill at the size limit"},
	  "resources":[{"uri":"skill://big/SKILL.md","digest":%q,"size":%d}]}`, Digest(data), len(data))))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if fs := Verify(s, s.URI, data); len(fs) != 0 {
			b.Fatal(fs)
		}
	}
}
