package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/skills"
)

// ListSkills is the Skills extension's listing (skills/list, member "skills"). It is not in
// ListKinds: it exists only when the server declares the extension (see HasSkills).
const ListSkills ListKind = "skills"

// HasSkills reports whether the server declared the Skills extension
// (capabilities.extensions["io.modelcontextprotocol/skills"]).
func (s *Session) HasSkills() bool {
	var caps struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	_ = json.Unmarshal(s.Info().Capabilities, &caps)
	v, ok := caps.Extensions[skills.Extension]
	return ok && string(v) != "null" && string(v) != "false"
}

// Skills fetches every page of skills/list. Nothing a skill lists is read: files are
// retrieved only when a skill is loaded (LoadSkill) or a file of it read (ReadSkillFile).
// Entries that break the extension's rules carry their Problems, and the response frame a
// finding.
func (s *Session) Skills(ctx context.Context) ([]skills.Skill, error) {
	items, err := s.List(ctx, ListSkills)
	out := make([]skills.Skill, 0, len(items))
	for _, raw := range items {
		out = append(out, skills.Parse(raw))
	}
	return out, err
}

// GetSkill asks the server for one skill's current entry (skills/get) by its SKILL.md URI.
func (s *Session) GetSkill(ctx context.Context, uri string) (skills.Skill, error) {
	resp, err := s.Call(ctx, "skills/get", map[string]string{"uri": uri})
	if err != nil {
		return skills.Skill{}, err
	}
	var res struct {
		Skill json.RawMessage `json:"skill"`
	}
	if json.Unmarshal(resp.Result, &res) != nil || len(res.Skill) == 0 {
		return skills.Skill{}, fmt.Errorf("skills/get %s: the result has no skill entry", uri)
	}
	return skills.Parse(res.Skill), nil
}

// SkillFile is one file of a skill read through the skill-loading path.
type SkillFile struct {
	URI      string
	Data     []byte             // the raw bytes, shown even when verification failed
	Findings []protocol.Finding // why the bytes must not be used; empty when verified
	Response *Response
}

// Verified reports whether the file matched its entry.
func (f *SkillFile) Verified() bool { return len(f.Findings) == 0 }

// SkillVerifyError is returned with a SkillFile whose content failed verification: the
// skill must not be loaded (SKILL.md) or the file used.
type SkillVerifyError struct {
	URI      string
	Findings []protocol.Finding
}

func (e *SkillVerifyError) Error() string {
	msgs := make([]string, len(e.Findings))
	for i, f := range e.Findings {
		msgs[i] = f.Message
	}
	return fmt.Sprintf("%s failed verification, not used: %s", e.URI, strings.Join(msgs, "; "))
}

// LoadSkill loads a skill: it reads its SKILL.md with resources/read and verifies the
// bytes against the entry (size, digest, frontmatter). An entry that must not be loaded
// (no valid resources member) is refused without a request.
func (s *Session) LoadSkill(ctx context.Context, entry skills.Skill) (*SkillFile, error) {
	if !entry.Loadable {
		return nil, fmt.Errorf("skill %s must not be loaded: %s", entry.URI, strings.Join(entry.Problems, "; "))
	}
	return s.readSkillFile(ctx, entry, entry.URI)
}

// ReadSkillFile reads one file of a loaded skill, by URI or by its path under the skill's
// root (references/FORMS.md), and verifies it. A file the entry does not list is refused
// without a request: while acting on a skill, reads resolve only to listed files.
func (s *Session) ReadSkillFile(ctx context.Context, entry skills.Skill, path string) (*SkillFile, error) {
	uri := entry.Resolve(path)
	if _, listed := entry.Resource(uri); !listed && !entry.Dynamic {
		return nil, fmt.Errorf("%s is not listed in the resources of skill %s; not read", uri, entry.URI)
	}
	return s.readSkillFile(ctx, entry, uri)
}

func (s *Session) readSkillFile(ctx context.Context, entry skills.Skill, uri string) (*SkillFile, error) {
	f := &SkillFile{URI: uri}
	var contentErr error
	check := func(result json.RawMessage) []protocol.Finding {
		f.Data, contentErr = skills.Content(result, uri)
		if contentErr != nil {
			return nil
		}
		f.Findings = skills.Verify(entry, uri, f.Data)
		return f.Findings
	}
	resp, err := s.Call(ctx, "resources/read", map[string]string{"uri": uri}, withCheck(check))
	f.Response = resp
	switch {
	case err != nil:
		return &SkillFile{URI: uri, Response: resp}, err // f may still be written by a late response
	case contentErr != nil:
		return f, contentErr
	case !f.Verified():
		return f, &SkillVerifyError{URI: uri, Findings: f.Findings}
	}
	return f, nil
}

// withCheck runs check on the result of this call's response before the response is
// published, so the findings it returns are on the frame the timeline shows.
func withCheck(check func(result json.RawMessage) []protocol.Finding) CallOption {
	return func(o *callOpts) { o.check = check }
}

// IsSkillVerifyError reports whether err is a verification failure.
func IsSkillVerifyError(err error) bool {
	var ve *SkillVerifyError
	return errors.As(err, &ve)
}
