package serve

import (
	"context"
	"regexp"
	"strings"
	"testing"
)

// TestSkillNamesTheTools: the skill file names no tool that does not exist (a tool is
// written as `name`) and every tool there is; its frontmatter has a name and a description.
func TestSkillNamesTheTools(t *testing.T) {
	s := New(Options{Open: func(Target) (*Opened, error) { t.Fatal("no connect in this test"); return nil, nil }})
	defer s.Close()
	cs := inMemory(t, s)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]bool{}
	for _, tl := range res.Tools {
		tools[tl.Name] = false
	}
	for _, m := range regexp.MustCompile("`([a-z][a-z_]*)`").FindAllStringSubmatch(Skill, -1) {
		if _, ok := tools[m[1]]; !ok {
			t.Errorf("the skill names `%s`, which is no tool", m[1])
			continue
		}
		tools[m[1]] = true
	}
	for name, named := range tools {
		if !named {
			t.Errorf("the skill does not name the tool %s", name)
		}
	}
	front, _, ok := strings.Cut(strings.TrimPrefix(Skill, "---\n"), "\n---\n")
	if !strings.HasPrefix(Skill, "---\n") || !ok || !strings.Contains(front, "name: mcpscope\n") || !strings.Contains(front, "description: ") {
		t.Errorf("the skill's frontmatter lacks name or description:\n%s", front)
	}
}
