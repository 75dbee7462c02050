package session_test

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

const (
	skillURI  = sessiontest.SkillURI
	skillText = sessiontest.SkillText
	formsText = sessiontest.FormsText
)

func skillsServer(t *testing.T, skillBody string) modernServer {
	return modernServer{sessiontest.StartSkillsServer(t, skillBody)}
}

func TestSkillsLoadVerified(t *testing.T) {
	ms := skillsServer(t, skillText)
	s, done := ms.connect(t)
	defer done()
	if !s.HasSkills() {
		t.Fatal("HasSkills is false")
	}
	list, err := s.Skills(testCtx(t))
	if err != nil || len(list) != 1 || len(list[0].Problems) != 0 || list[0].Name != "pdf-processing" {
		t.Fatalf("skills %+v, %v", list, err)
	}
	if n := len(ms.requests("resources/read")); n != 0 {
		t.Fatalf("listing read %d files: nothing may be prefetched", n)
	}
	f, err := s.LoadSkill(testCtx(t), list[0])
	if err != nil || !f.Verified() || string(f.Data) != skillText {
		t.Fatalf("load: %v %+v", err, f)
	}
	if f, err = s.ReadSkillFile(testCtx(t), list[0], "references/FORMS.md"); err != nil || string(f.Data) != formsText {
		t.Fatalf("FORMS.md: %v %+v", err, f)
	}
	// An unlisted file is refused without a request.
	if _, err = s.ReadSkillFile(testCtx(t), list[0], "scripts/run.sh"); err == nil || !strings.Contains(err.Error(), "not listed") {
		t.Fatalf("unlisted: %v", err)
	}
	if n := len(ms.requests("resources/read")); n != 2 {
		t.Fatalf("%d reads, want 2", n)
	}
	got, err := s.GetSkill(testCtx(t), skillURI)
	if err != nil || got.URI != skillURI || len(got.Resources) != 2 {
		t.Fatalf("skills/get: %+v %v", got, err)
	}
}

func TestSkillsLoadTampered(t *testing.T) {
	tests := map[string]struct{ body, code string }{
		"digest":      {strings.Replace(skillText, "Use", "Rm!", 1), protocol.FindSkillDigest},
		"size":        {skillText + "more\n", protocol.FindSkillSize},
		"frontmatter": {strings.Replace(skillText, "version: 2", "version: 3", 1), protocol.FindSkillDigest + "," + protocol.FindSkillFrontmatter},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			ms := skillsServer(t, tt.body)
			s, done := ms.connect(t)
			defer done()
			list, err := s.Skills(testCtx(t))
			if err != nil || len(list) != 1 {
				t.Fatalf("skills %v", err)
			}
			f, err := s.LoadSkill(testCtx(t), list[0])
			if !session.IsSkillVerifyError(err) || f == nil || f.Verified() {
				t.Fatalf("load of a tampered SKILL.md: %v", err)
			}
			// The findings are on the response frame the timeline shows.
			var codes []string
			for _, fd := range f.Response.Event.Frame.Findings {
				codes = append(codes, fd.Code)
			}
			if strings.Join(codes, ",") != tt.code {
				t.Fatalf("frame findings %v, want %s", codes, tt.code)
			}
		})
	}
}
