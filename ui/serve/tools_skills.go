package serve

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/skills"
	"github.com/mcpscope/mcpscope/session"
)

// Bounds of skills' results.
const maxSkillsListed = 200

// SkillsIn is skills' input.
type SkillsIn struct {
	Session  string `json:"session"`
	Action   string `json:"action" jsonschema:"list (skills/list, every page), get (skills/get, then its SKILL.md read and checked against the entry's size and digest) or file (one listed file of a skill, checked the same way)"`
	URI      string `json:"uri,omitempty" jsonschema:"get, file: the skill's SKILL.md URI"`
	Path     string `json:"path,omitempty" jsonschema:"file: the file's path under the skill (e.g. references/FORMS.md) or its URI"`
	MaxBytes int    `json:"max_bytes,omitempty" jsonschema:"a file's bytes are cut to this many (default 65536, at most 1048576)"`
}

// SkillInfo is one skill entry.
type SkillInfo struct {
	URI         string   `json:"uri"`
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Files       int      `json:"files" jsonschema:"the files the entry lists, SKILL.md included"`
	Dynamic     bool     `json:"dynamic,omitempty" jsonschema:"resources is dynamic: no digest to check against"`
	Loadable    bool     `json:"loadable" jsonschema:"a host may load it"`
	Problems    []string `json:"problems,omitempty" jsonschema:"the extension's rules the entry breaks"`
}

// SkillFileOut is a file of a skill, read and checked.
type SkillFileOut struct {
	URI         string    `json:"uri"`
	Verified    bool      `json:"verified" jsonschema:"the bytes match the entry's size and digest: a host may use them"`
	Size        int       `json:"size"`
	Text        string    `json:"text" jsonschema:"the file's bytes, cut to max_bytes (shown even when not verified)"`
	Cut         bool      `json:"cut,omitempty"`
	ResponseSeq uint64    `json:"response_seq,omitempty" jsonschema:"the resources/read response: frame shows its bytes"`
	Findings    []Finding `json:"findings,omitempty" jsonschema:"why the bytes must not be used"`
}

// SkillsOut is skills' result.
type SkillsOut struct {
	Skills    []SkillInfo   `json:"skills,omitempty" jsonschema:"list: the entries"`
	More      bool          `json:"more,omitempty" jsonschema:"list: more than 200 entries; the rest are left out"`
	Skill     *SkillInfo    `json:"skill,omitempty" jsonschema:"get: the entry skills/get returned"`
	File      *SkillFileOut `json:"file,omitempty" jsonschema:"get: its SKILL.md; file: the file"`
	LastSeq   uint64        `json:"last_seq,omitempty" jsonschema:"the timeline holds the requests up to here"`
	Extension string        `json:"extension" jsonschema:"the extension's id, declared by the server"`
}

func (s *Server) skills(ctx context.Context, in SkillsIn) (SkillsOut, error) {
	l, err := s.reg.get(in.Session)
	if err != nil {
		return SkillsOut{}, err
	}
	out := SkillsOut{Extension: skills.Extension}
	if !l.sess().HasSkills() {
		return out, fmt.Errorf("the server did not declare the Skills extension (%s)", skills.Extension)
	}
	switch in.Action {
	case "list":
		all, err := l.sess().Skills(ctx)
		if err != nil {
			return out, fmt.Errorf("skills/list: %w", err)
		}
		out.Skills = []SkillInfo{}
		for i, sk := range all {
			if i == maxSkillsListed {
				out.More = true
				break
			}
			out.Skills = append(out.Skills, skillInfo(sk))
		}
	case "get", "file":
		if in.URI == "" {
			return out, fmt.Errorf("%s needs uri: the skill's SKILL.md URI", in.Action)
		}
		entry, err := l.sess().GetSkill(ctx, in.URI)
		if err != nil {
			return out, fmt.Errorf("skills/get: %w", err)
		}
		info := skillInfo(entry)
		out.Skill = &info
		var f *session.SkillFile
		if in.Action == "get" {
			f, err = l.sess().LoadSkill(ctx, entry)
		} else {
			if in.Path == "" {
				return out, fmt.Errorf("file needs path")
			}
			f, err = l.sess().ReadSkillFile(ctx, entry, in.Path)
		}
		var verr *session.SkillVerifyError
		if err != nil && !errors.As(err, &verr) {
			return out, err
		}
		out.File = skillFile(f, clamp(in.MaxBytes, defaultFrame, maxFrame), l)
	default:
		return out, fmt.Errorf("action %q: want list, get or file", in.Action)
	}
	l.mu.Lock()
	out.LastSeq = l.pumped
	l.mu.Unlock()
	return out, nil
}

func skillInfo(sk skills.Skill) SkillInfo {
	return SkillInfo{URI: sk.URI, Name: sk.Name, Description: sk.Description, Files: len(sk.Resources), Dynamic: sk.Dynamic,
		Loadable: sk.Loadable, Problems: sk.Problems}
}

// skillFile is a file read, its text cut to max bytes and masked as results are.
func skillFile(f *session.SkillFile, max int, l *live) *SkillFileOut {
	out := &SkillFileOut{URI: f.URI, Verified: f.Verified(), Size: len(f.Data)}
	text := string(f.Data)
	if !utf8.ValidString(text) {
		text = "(not UTF-8 text: frame shows the bytes)"
	}
	if len(text) > max {
		text, out.Cut = cutUTF8(text, max), true
	}
	out.Text = l.redactor.Masker().String(text)
	var seq uint64
	if f.Response != nil && f.Response.Event != nil {
		seq = f.Response.Event.Seq
		l.saw(seq)
	}
	out.ResponseSeq = seq
	for _, fd := range f.Findings {
		out.Findings = append(out.Findings, finding(seq, fd))
	}
	return out
}

// finding is a protocol finding on event seq.
func finding(seq uint64, f protocol.Finding) Finding {
	return Finding{Seq: seq, Code: f.Code, Severity: f.Severity.String(), Message: f.Message}
}
