package explorer

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/skills"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// This file holds what the explorer shows of two 2026-07-28 additions: the tool parameters
// mirrored into Mcp-Param-* headers (x-mcp-header, SEP-2243) and the Skills extension's tab.

// setSkillsTab adds the skills tab (last) when the server declares the Skills extension
// and removes it otherwise, so servers without it show the four core lists only.
func (x *Explorer) setSkillsTab(on bool) {
	last := x.tabs[len(x.tabs)-1]
	switch has := last.kind == session.ListSkills; {
	case on && !has:
		x.tabs = append(x.tabs, &exTab{kind: session.ListSkills})
	case !on && has:
		x.tabs = x.tabs[:len(x.tabs)-1]
		x.cur = min(x.cur, len(x.tabs)-1)
	}
}

// headerLines is a tool's "HTTP headers" section: each mirrored parameter and its header,
// or why the annotations make the tool excluded.
func headerLines(s *Styles, it *exItem, prefix string, w int) []string {
	if len(it.headerProblems) > 0 {
		out := textfmt.WrapProse(s.Error, "Excluded from calls over Streamable HTTP (2026-07-28): its x-mcp-header annotations are invalid.", prefix, w)
		for _, p := range it.headerProblems {
			out = append(out, textfmt.Hanging(s.Error, prefix+"• ", p, w)...)
		}
		return out
	}
	nameW := 0
	for _, p := range it.headers {
		nameW = max(nameW, len(p.Pointer()))
	}
	out := make([]string, 0, len(it.headers))
	for _, p := range it.headers {
		out = append(out, prefix+s.JSONKey.Render(textfmt.Pad(p.Pointer(), nameW))+s.Muted.Render(" → ")+
			s.Text.Render(p.Header())+s.Muted.Render(" ("+p.Type+")"))
	}
	return out
}

// mirroredNote names the parameters a tool call mirrors into headers, for the form's title.
func mirroredNote(it *exItem) string {
	if len(it.headers) == 0 {
		return ""
	}
	parts := make([]string, len(it.headers))
	for i, p := range it.headers {
		parts[i] = strings.TrimPrefix(p.Pointer(), "/") + "→" + p.Header()
	}
	return " · headers: " + strings.Join(parts, ", ")
}

// headerNotes tell the form which fields are mirrored into headers, by JSON pointer.
func headerNotes(it *exItem) map[string]string {
	if len(it.headers) == 0 {
		return nil
	}
	notes := make(map[string]string, len(it.headers))
	for _, p := range it.headers {
		notes[p.Pointer()] = "also sent as the HTTP header " + p.Header() + " (x-mcp-header)"
	}
	return notes
}

// toolExcluded says why tools/call of it is refused, or "".
func (x *Explorer) toolExcluded(it *exItem) string {
	if x.sess == nil || len(it.headerProblems) == 0 || !x.sess.ToolHeaders(it.name).Excluded {
		return ""
	}
	return fmt.Sprintf("%s is excluded (%s): %s", it.name, protocol.FindToolHeader, strings.Join(it.headerProblems, "; "))
}

// skillLines is a skill's detail: its files with size and digest, and what is wrong with
// the entry.
func skillLines(s *Styles, sk *skills.Skill, prefix string, w int) []string {
	var out []string
	for _, p := range sk.Problems {
		out = append(out, textfmt.Hanging(s.Error, prefix+"• ", p, w)...)
	}
	if sk.Dynamic {
		return append(out, textfmt.WrapProse(s.Muted, `resources: "dynamic" (no digests: the content cannot be verified)`, prefix, w)...)
	}
	for _, r := range sk.Resources {
		head := prefix + s.Text.Render(strings.TrimPrefix(r.URI, strings.TrimSuffix(sk.URI, "SKILL.md"))) +
			s.Muted.Render(fmt.Sprintf("  %s  %s", textfmt.Size(r.Size), shortDigest(r.Digest)))
		out = append(out, textfmt.FitRow(head, w))
	}
	return out
}

// shortDigest keeps a digest's algorithm and first hex digits.
func shortDigest(d string) string {
	if len(d) > len("sha256:")+12 {
		return d[:len("sha256:")+12] + "…"
	}
	return d
}

// loadSkill loads the selected skill: its SKILL.md is read and verified; a failure shows
// as the run's error and the content is not shown (the frame keeps it, with findings).
func (x *Explorer) loadSkill(it *exItem) tea.Cmd {
	if !it.skill.Loadable {
		return statusCmd("skill "+it.uri+" must not be loaded: "+strings.Join(it.skill.Problems, "; "), true)
	}
	return x.start(it, methodResourcesRead, it.uri, "", loadSkillCmd(x.sess, x.gen, x.runSeq+1, *it.skill))
}

// loadSkillCmd runs session.LoadSkill off the UI loop.
func loadSkillCmd(s *session.Session, gen, run int, sk skills.Skill) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		f, err := s.LoadSkill(ctx, sk)
		var resp *session.Response
		if f != nil {
			resp = f.Response
		}
		return CallDoneMsg{Gen: gen, Run: run, Resp: resp, Err: err, Rev: s.Info().Revision, At: time.Now()}
	}
}
