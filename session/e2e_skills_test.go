package session_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

const (
	skillURI   = "skill://acme/pdf-processing/SKILL.md"
	formsURI   = "skill://acme/pdf-processing/references/FORMS.md"
	skillText  = "---\nname: pdf-processing\ndescription: Extract PDF text\nmetadata:\n  version: 2\n---\n\nUse references/FORMS.md.\n"
	formsText  = "Forms.\n"
	skillsCaps = `{"resources":{},"extensions":{"io.modelcontextprotocol/skills":{}}}`
)

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// skillsServer serves one skill whose SKILL.md is served as skillBody (the entry always
// describes skillText).
func skillsServer(t *testing.T, skillBody string) *modernServer {
	entry := json.RawMessage(fmt.Sprintf(`{"uri":%q,"frontmatter":{"name":"pdf-processing","description":"Extract PDF text","metadata":{"version":2}},
	  "resources":[{"uri":%q,"digest":%q,"size":%d},{"uri":%q,"digest":%q,"size":%d}]}`,
		skillURI, skillURI, digest(skillText), len(skillText), formsURI, digest(formsText), len(formsText)))
	return startModernServer(t, skillsCaps, func(method string, params json.RawMessage) any {
		var p struct {
			URI string `json:"uri"`
		}
		_ = json.Unmarshal(params, &p)
		switch method {
		case "skills/list":
			return map[string]any{"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "skills": []any{entry}}
		case "skills/get":
			return map[string]any{"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "skill": entry}
		case "resources/read":
			text := formsText
			if p.URI == skillURI {
				text = skillBody
			}
			return map[string]any{"resultType": "complete", "contents": []any{map[string]string{"uri": p.URI, "mimeType": "text/markdown", "text": text}}}
		}
		return nil
	})
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
