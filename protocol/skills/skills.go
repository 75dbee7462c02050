// Package skills is the Skills extension (io.modelcontextprotocol/skills, SEP-2640) as
// data: the Skill entry of skills/list and skills/get, the checks an entry must pass, and
// the verification of a skill file read with resources/read against its entry (size,
// SHA-256 digest, and for SKILL.md its YAML frontmatter). No I/O.
package skills

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
)

// Extension is the extension identifier servers declare under capabilities.extensions.
const Extension = "io.modelcontextprotocol/skills"

// The extension's per-skill limits: every host must accept skills up to them.
const (
	MaxResources  = 512
	MaxTotalBytes = 16 << 20
)

// Resource is one file of a skill with the digest and size of its raw bytes.
type Resource struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// Skill is one entry of skills/list or skills/get.
type Skill struct {
	URI         string          // the SKILL.md resource URI
	Frontmatter json.RawMessage // SKILL.md's frontmatter as a JSON object, verbatim
	Name        string          // frontmatter.name
	Description string          // frontmatter.description
	Resources   []Resource      // every file, SKILL.md included; nil when Dynamic
	Dynamic     bool            // resources is "dynamic": no digests to verify against
	Raw         json.RawMessage // the entry as the server sent it
	// Problems are the rules of the extension the entry breaks. Loadable says whether a
	// host may still load it (only a missing or malformed resources member forbids it).
	Problems []string
	Loadable bool
}

func digestSyntax(d string) bool {
	h, ok := strings.CutPrefix(d, "sha256:")
	if !ok || len(h) != 64 {
		return false
	}
	for i := 0; i < len(h); i++ {
		if c := h[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// Parse reads one entry and checks it against the extension's rules.
func Parse(raw json.RawMessage) Skill {
	s := Skill{Raw: raw}
	var e struct {
		URI         string          `json:"uri"`
		Frontmatter json.RawMessage `json:"frontmatter"`
		Resources   json.RawMessage `json:"resources"`
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		s.Problems = append(s.Problems, "the entry is not an object with uri, frontmatter and resources: "+err.Error())
		return s
	}
	s.URI, s.Frontmatter = e.URI, e.Frontmatter
	var fm map[string]json.RawMessage
	if json.Unmarshal(e.Frontmatter, &fm) != nil {
		s.Problems = append(s.Problems, "frontmatter is not an object")
	}
	if json.Unmarshal(fm["name"], &s.Name) != nil || s.Name == "" {
		s.Problems = append(s.Problems, "frontmatter.name is missing or not a string")
	}
	if json.Unmarshal(fm["description"], &s.Description) != nil || s.Description == "" {
		s.Problems = append(s.Problems, "frontmatter.description is missing or not a string")
	}
	dir, ok := strings.CutSuffix(s.URI, "/SKILL.md")
	switch {
	case !ok:
		s.Problems = append(s.Problems, fmt.Sprintf("uri %q does not name a SKILL.md", s.URI))
	case s.Name != "" && dir[strings.LastIndexAny(dir, "/")+1:] != s.Name:
		s.Problems = append(s.Problems, fmt.Sprintf("the last path segment of %q is not the skill's name %q", s.URI, s.Name))
	}
	s.parseResources(e.Resources, dir+"/")
	return s
}

func (s *Skill) parseResources(raw json.RawMessage, dir string) {
	raw = bytes.TrimSpace(raw)
	if string(raw) == `"dynamic"` {
		s.Dynamic, s.Loadable = true, true
		return
	}
	if json.Unmarshal(raw, &s.Resources) != nil || len(raw) == 0 || raw[0] != '[' {
		s.Resources = nil
		s.Problems = append(s.Problems, `resources is missing or neither an array nor "dynamic": a host must not load the skill`)
		return
	}
	s.Loadable = true
	seen := map[string]bool{}
	var total int64
	hasSkillMD := false
	for i, r := range s.Resources {
		at := fmt.Sprintf("resources[%d] (%s)", i, r.URI)
		switch {
		case seen[r.URI]:
			s.Problems = append(s.Problems, at+": listed twice")
		case r.URI != s.URI && !strings.HasPrefix(r.URI, dir):
			s.Problems = append(s.Problems, at+": not a file in the skill's directory")
		}
		seen[r.URI] = true
		hasSkillMD = hasSkillMD || r.URI == s.URI
		if !digestSyntax(r.Digest) {
			s.Problems = append(s.Problems, fmt.Sprintf("%s: digest %q is not sha256: and 64 lowercase hex digits", at, r.Digest))
		}
		if r.Size < 0 {
			s.Problems = append(s.Problems, at+": negative size")
		}
		total += r.Size
	}
	if !hasSkillMD {
		s.Problems = append(s.Problems, "resources has no entry for the skill's own SKILL.md")
	}
	if len(s.Resources) > MaxResources {
		s.Problems = append(s.Problems, fmt.Sprintf("%d files, over the limit of %d per skill", len(s.Resources), MaxResources))
	}
	if total > MaxTotalBytes {
		s.Problems = append(s.Problems, fmt.Sprintf("%d bytes in all, over the limit of %d per skill", total, MaxTotalBytes))
	}
}

// Resource returns the entry's record of the file at uri.
func (s Skill) Resource(uri string) (Resource, bool) {
	for _, r := range s.Resources {
		if r.URI == uri {
			return r, true
		}
	}
	return Resource{}, false
}

// Resolve turns a file path relative to the skill's root (references/FORMS.md) into its
// URI; a full URI is returned as it is.
func (s Skill) Resolve(path string) string {
	if strings.Contains(path, "://") {
		return path
	}
	return strings.TrimSuffix(s.URI, "SKILL.md") + strings.TrimPrefix(path, "/")
}

// EntryFindings flags the entries of a skills/list result (member "skills") or the entry
// of a skills/get result (member "skill") that break the extension's rules.
func EntryFindings(result json.RawMessage) []protocol.Finding {
	var res struct {
		Skills []json.RawMessage `json:"skills"`
		Skill  json.RawMessage   `json:"skill"`
	}
	if json.Unmarshal(result, &res) != nil {
		return nil
	}
	if res.Skill != nil {
		res.Skills = append(res.Skills, res.Skill)
	}
	var out []protocol.Finding
	for _, raw := range res.Skills {
		if s := Parse(raw); len(s.Problems) > 0 {
			out = append(out, protocol.NewFinding(protocol.FindSkillEntry, "skill %s: %s", s.URI, strings.Join(s.Problems, "; ")))
		}
	}
	return out
}

// Content is the raw bytes of uri in a resources/read result: the text of the content
// item with that uri (or the only item), in UTF-8, or its blob decoded.
func Content(result json.RawMessage, uri string) ([]byte, error) {
	var res struct {
		Contents []struct {
			URI  string  `json:"uri"`
			Text *string `json:"text"`
			Blob *string `json:"blob"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(result, &res); err != nil {
		return nil, fmt.Errorf("the resources/read result is not an object with contents: %w", err)
	}
	for i, c := range res.Contents {
		if c.URI != uri && !(len(res.Contents) == 1 && i == 0) {
			continue
		}
		switch {
		case c.Text != nil:
			return []byte(*c.Text), nil
		case c.Blob != nil:
			b, err := base64.StdEncoding.DecodeString(*c.Blob)
			if err != nil {
				return nil, fmt.Errorf("the blob of %s is not Base64: %w", uri, err)
			}
			return b, nil
		}
	}
	return nil, fmt.Errorf("the resources/read result has no text or blob for %s", uri)
}

// Digest is the extension's digest of data: sha256: and 64 lowercase hex digits.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Verify checks a file's bytes against the skill's entry: its size and digest when the
// entry lists files, and for SKILL.md the frontmatter field by field. Each failure is a
// finding; any failure means the content must not be used. A file the entry does not list
// fails too (while acting on a skill, an unlisted file is a change to the skill).
func Verify(s Skill, uri string, data []byte) []protocol.Finding {
	var out []protocol.Finding
	if !s.Dynamic {
		r, listed := s.Resource(uri)
		switch {
		case !listed:
			out = append(out, protocol.NewFinding(protocol.FindSkillDigest,
				"%s is not listed in the resources of skill %s, so it cannot be verified", uri, s.URI))
		case int64(len(data)) != r.Size:
			out = append(out, protocol.NewFinding(protocol.FindSkillSize,
				"%s is %d bytes; the skill's entry says %d", uri, len(data), r.Size))
		default:
			if d := Digest(data); d != r.Digest {
				out = append(out, protocol.NewFinding(protocol.FindSkillDigest,
					"%s has digest %s; the skill's entry says %s", uri, d, r.Digest))
			}
		}
	}
	if uri == s.URI {
		for _, p := range CompareFrontmatter(s.Frontmatter, data) {
			out = append(out, protocol.NewFinding(protocol.FindSkillFrontmatter, "%s: %s", uri, p))
		}
	}
	return out
}
