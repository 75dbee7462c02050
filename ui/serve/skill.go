package serve

import _ "embed" // the skill file

// Skill is the SKILL.md coding agents load to use mcpscope serve (mcpscope serve --skill
// prints it). skill_test.go keeps it naming only tools that exist, and every one of them.
//
//go:embed SKILL.md
var Skill string
