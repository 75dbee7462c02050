package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/protocol/skills"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
)

// SkillsCmd groups the Skills extension's commands.
type SkillsCmd struct {
	List SkillsListCmd `cmd:"" help:"List the server's skills (skills/list, every page); reads no skill file."`
	Get  SkillsGetCmd  `cmd:"" help:"Load a skill: read its SKILL.md and verify size, digest and frontmatter against its entry; FILE... or --all also read (and verify) supporting files."`
}

// SkillsListCmd lists skills.
type SkillsListCmd struct{}

// Run implements the command.
func (SkillsListCmd) Run(r *runner) error {
	s, done, err := r.connectOneShot()
	if err != nil {
		return err
	}
	defer done()
	if !s.HasSkills() {
		fmt.Fprintf(r.stderr, "mcpscope: the server did not declare the %s extension; asking anyway\n", skills.Extension)
	}
	list, err := s.Skills(r.ctx)
	if err != nil {
		return err
	}
	out := make([]json.RawMessage, 0, len(list))
	for _, sk := range list {
		out = append(out, sk.Raw)
		r.warnEntry(sk)
	}
	return r.printJSON(out)
}

// warnEntry says on stderr what is wrong with an entry.
func (r *runner) warnEntry(sk skills.Skill) {
	if len(sk.Problems) > 0 {
		fmt.Fprintf(r.stderr, "mcpscope: skill %s: %s\n", jsonview.EscapeText(sk.URI), jsonview.EscapeText(strings.Join(sk.Problems, "; ")))
	}
}

// SkillsGetCmd loads one skill.
type SkillsGetCmd struct {
	Skill string   `arg:"" help:"The skill: its SKILL.md URI, or its name when the listing has exactly one skill of that name."`
	Files []string `arg:"" optional:"" help:"Supporting files to read after SKILL.md, as paths under the skill's root (references/FORMS.md) or URIs."`
	All   bool     `help:"Read every file the skill's entry lists."`
	Fresh bool     `help:"Ask skills/get for the entry even when skills/list has it."`
}

// skillFileJSON is one file in get's output.
type skillFileJSON struct {
	URI      string `json:"uri"`
	Size     int    `json:"size"`
	Digest   string `json:"digest"`
	Verified bool   `json:"verified"`
	Text     string `json:"text,omitempty"`
	Blob     []byte `json:"blob,omitempty"`
}

// Run implements the command.
func (c SkillsGetCmd) Run(r *runner) error {
	s, done, err := r.connectOneShot()
	if err != nil {
		return err
	}
	defer done()
	entry, err := c.entry(r, s)
	if err != nil {
		return err
	}
	r.warnEntry(entry)
	out := struct {
		Skill json.RawMessage `json:"skill"`
		Files []skillFileJSON `json:"files"`
	}{Skill: entry.Raw}
	emit := func(f *session.SkillFile, err error) error {
		if f != nil && f.Data != nil {
			out.Files = append(out.Files, fileJSON(f))
		}
		return err
	}
	// SKILL.md first: a skill that fails verification is not loaded, and none of its other
	// files is read.
	if err := emit(s.LoadSkill(r.ctx, entry)); err != nil {
		_ = r.printJSON(out)
		return err
	}
	paths := c.Files
	if c.All {
		paths = nil
		for _, res := range entry.Resources {
			if res.URI != entry.URI {
				paths = append(paths, res.URI)
			}
		}
	}
	for _, p := range paths {
		if err := emit(s.ReadSkillFile(r.ctx, entry, p)); err != nil {
			_ = r.printJSON(out)
			return err
		}
	}
	return r.printJSON(out)
}

// entry finds the skill's entry: in the listing, by URI or unique name; else, for a URI,
// from skills/get (a listing may be partial).
func (c SkillsGetCmd) entry(r *runner, s *session.Session) (skills.Skill, error) {
	isURI := strings.Contains(c.Skill, "://")
	if isURI && c.Fresh {
		return s.GetSkill(r.ctx, c.Skill)
	}
	list, err := s.Skills(r.ctx)
	if err != nil && !isURI {
		return skills.Skill{}, err
	}
	var byName []skills.Skill
	for _, sk := range list {
		if sk.URI == c.Skill {
			return sk, nil
		}
		if sk.Name == c.Skill {
			byName = append(byName, sk)
		}
	}
	switch {
	case isURI:
		return s.GetSkill(r.ctx, c.Skill)
	case len(byName) == 1:
		return byName[0], nil
	case len(byName) > 1:
		uris := make([]string, len(byName))
		for i, sk := range byName {
			uris[i] = sk.URI
		}
		return skills.Skill{}, usageError{fmt.Errorf("%d skills are named %q: give one of their URIs: %s",
			len(byName), c.Skill, strings.Join(uris, ", "))}
	}
	return skills.Skill{}, usageError{errors.New("no skill named " + c.Skill + " in skills/list; give its SKILL.md URI")}
}

func fileJSON(f *session.SkillFile) skillFileJSON {
	j := skillFileJSON{URI: f.URI, Size: len(f.Data), Digest: skills.Digest(f.Data), Verified: f.Verified()}
	switch {
	case !j.Verified:
		// Unverified content must not be used: it is withheld here (the frame, in --trace
		// or a recording, still has it for inspection).
	case utf8.Valid(f.Data):
		j.Text = string(f.Data)
	default:
		j.Blob = f.Data
	}
	return j
}
