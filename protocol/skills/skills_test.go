package skills

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
)

const skillMD = "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\nSkill body.\n"
const formsMD = "Supporting content.\n"

func entry(skill string) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"uri":"skill://pdf-processing/SKILL.md",
	 "frontmatter":{"name":"pdf-processing","description":"Extract, fill, and assemble PDF documents"},
	 "resources":[{"uri":"skill://pdf-processing/SKILL.md","digest":%q,"size":%d},
	              {"uri":"skill://pdf-processing/references/FORMS.md","digest":%q,"size":%d}]}`,
		Digest([]byte(skill)), len(skill), Digest([]byte(formsMD)), len(formsMD)))
}

func codes(fs []protocol.Finding) string {
	var c []string
	for _, f := range fs {
		c = append(c, f.Code)
	}
	return strings.Join(c, ",")
}

func TestParseValidEntry(t *testing.T) {
	s := Parse(entry(skillMD))
	if len(s.Problems) != 0 || !s.Loadable || s.Name != "pdf-processing" || len(s.Resources) != 2 {
		t.Fatalf("%+v", s)
	}
	if got := s.Resolve("references/FORMS.md"); got != "skill://pdf-processing/references/FORMS.md" {
		t.Fatalf("Resolve = %q", got)
	}
	if fs := Verify(s, s.URI, []byte(skillMD)); len(fs) != 0 {
		t.Fatalf("verified SKILL.md: %v", fs)
	}
	if fs := Verify(s, s.Resolve("references/FORMS.md"), []byte(formsMD)); len(fs) != 0 {
		t.Fatalf("verified FORMS.md: %v", fs)
	}
}

// The three tampered SKILL.md files of the conformance suite's client scenarios.
func TestVerifyTampered(t *testing.T) {
	s := Parse(entry(skillMD))
	tests := map[string]struct {
		data string
		want string
	}{
		"digest": {strings.Replace(skillMD, "Skill body.", "Evil body!!", 1), protocol.FindSkillDigest},
		"size":   {skillMD + "extra bytes the entry did not account for\n", protocol.FindSkillSize},
	}
	for name, tt := range tests {
		if got := codes(Verify(s, s.URI, []byte(tt.data))); got != tt.want {
			t.Errorf("%s: findings %q, want %q", name, got, tt.want)
		}
	}
	// frontmatter: digest and size match the served file, the frontmatter does not.
	evil := strings.Replace(skillMD, "description: Extract, fill, and assemble PDF documents", "description: Exfiltrate credentials", 1)
	s = Parse(entry(evil))
	fs := Verify(s, s.URI, []byte(evil))
	if codes(fs) != protocol.FindSkillFrontmatter || !strings.Contains(fs[0].Message, `field "description" is "Exfiltrate credentials" in SKILL.md`) {
		t.Fatalf("frontmatter findings %v", fs)
	}
	// An unlisted file fails; a dynamic skill checks only the frontmatter.
	if got := codes(Verify(s, "skill://pdf-processing/other.md", nil)); got != protocol.FindSkillDigest {
		t.Fatalf("unlisted: %q", got)
	}
	dyn := Parse(json.RawMessage(`{"uri":"skill://reports/daily/SKILL.md","frontmatter":{"name":"daily","description":"d"},"resources":"dynamic"}`))
	if !dyn.Dynamic || !dyn.Loadable || len(dyn.Problems) != 0 {
		t.Fatalf("dynamic %+v", dyn)
	}
	if fs := Verify(dyn, dyn.URI, []byte("---\nname: daily\ndescription: d\n---\n")); len(fs) != 0 {
		t.Fatalf("dynamic: %v", fs)
	}
}

func TestParseInvalidEntries(t *testing.T) {
	tests := map[string]struct{ entry, want string }{
		"no resources":   {`{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"}}`, "must not load"},
		"bad resources":  {`{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":"static"}`, "must not load"},
		"bad digest":     {`{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":[{"uri":"skill://a/SKILL.md","digest":"sha256:ABC","size":1}]}`, "is not sha256:"},
		"no SKILL.md":    {`{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":[]}`, "no entry for the skill's own SKILL.md"},
		"name mismatch":  {`{"uri":"skill://acme/b/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":"dynamic"}`, "is not the skill's name"},
		"not SKILL.md":   {`{"uri":"skill://a/README.md","frontmatter":{"name":"a","description":"d"},"resources":"dynamic"}`, "does not name a SKILL.md"},
		"outside":        {`{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":[{"uri":"skill://a/SKILL.md","digest":"sha256:` + strings.Repeat("0", 64) + `","size":1},{"uri":"skill://b/x","digest":"sha256:` + strings.Repeat("0", 64) + `","size":1}]}`, "not a file in the skill's directory"},
		"no description": {`{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a"},"resources":"dynamic"}`, "description is missing"},
		"over the limit": {`{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":[{"uri":"skill://a/SKILL.md","digest":"sha256:` + strings.Repeat("0", 64) + `","size":16777217}]}`, "over the limit"},
	}
	for name, tt := range tests {
		s := Parse(json.RawMessage(tt.entry))
		if !strings.Contains(strings.Join(s.Problems, "\n"), tt.want) {
			t.Errorf("%s: problems %q, want %q", name, s.Problems, tt.want)
		}
	}
	fs := EntryFindings(json.RawMessage(`{"skills":[` + tests["bad digest"].entry + `]}`))
	if codes(fs) != protocol.FindSkillEntry {
		t.Fatalf("EntryFindings: %v", fs)
	}
}

func TestFrontmatter(t *testing.T) {
	md := "\ufeff---\r\nname: refunds\r\ndescription: \"Process refunds\"\r\nlicense: Apache-2.0\r\nmetadata:\r\n  version: 2.1\r\n  released: 2024-01-02\r\n  tags: [a, b]\r\n---\r\nbody"
	entry := `{"name":"refunds","description":"Process refunds","license":"Apache-2.0","metadata":{"version":2.1,"released":"2024-01-02","tags":["a","b"]}}`
	if diff := CompareFrontmatter(json.RawMessage(entry), []byte(md)); len(diff) != 0 {
		t.Fatalf("diff %v", diff)
	}
	diff := CompareFrontmatter(json.RawMessage(`{"name":"refunds","description":"Process refunds","extra":true}`), []byte(md))
	want := []string{`field "extra" is in the entry but not in SKILL.md`, `field "license" is in SKILL.md but not in the entry`,
		`field "metadata" is in SKILL.md but not in the entry`}
	if strings.Join(diff, "\n") != strings.Join(want, "\n") {
		t.Fatalf("diff %q", diff)
	}
	laughs := "---\na: &a [x, x, x, x, x, x, x, x, x]\n"
	for i, prev := 0, "a"; i < 8; i++ {
		name := string(rune('b' + i))
		laughs += fmt.Sprintf("%s: &%s [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", name, name, prev, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = name
	}
	if _, err := Frontmatter([]byte(laughs + "---\n")); err == nil || !strings.Contains(err.Error(), "expands to more than") {
		t.Errorf("alias expansion: %v", err)
	}
	for _, bad := range []string{"no frontmatter", "---\nname: a\n", "---\n[1, 2]\n---\n", "---\nname: [\n---\n"} {
		if _, err := Frontmatter([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestContent(t *testing.T) {
	text := `{"contents":[{"uri":"skill://a/SKILL.md","text":"héllo"}]}`
	if b, err := Content(json.RawMessage(text), "skill://a/SKILL.md"); err != nil || string(b) != "héllo" {
		t.Fatalf("%q %v", b, err)
	}
	blob := `{"contents":[{"uri":"x","text":"no"},{"uri":"skill://a/x.bin","blob":"AAEC"}]}`
	if b, err := Content(json.RawMessage(blob), "skill://a/x.bin"); err != nil || string(b) != "\x00\x01\x02" {
		t.Fatalf("%q %v", b, err)
	}
	if _, err := Content(json.RawMessage(`{"contents":[]}`), "x"); err == nil {
		t.Fatal("empty contents: no error")
	}
}
