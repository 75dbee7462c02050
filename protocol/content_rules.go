package protocol

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// PhraseRule is one row of the table of text addressed to a model: a pattern (Go regexp,
// matched case-insensitively on the text) and the finding it raises. The table is small on
// purpose: each row is a shape seen in poisoned tool descriptions, worded narrowly enough
// that an honest description rarely matches. A match says what the text reads like, not
// what its author meant.
type PhraseRule struct {
	ID      string // stable, for documentation and tests
	Code    string // FindContentInstruction or FindContentMarkup
	What    string // how the finding words it: "reads like …"
	Pattern string
}

// ContentRules is the table of phrases, in the order they are tried. README lists it.
var ContentRules = []PhraseRule{
	{"ignore-instructions", FindContentInstruction, "reads like an instruction to ignore earlier instructions",
		`\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(of\s+)?(the\s+|your\s+)?(previous|prior|earlier|above|preceding|system|other)\s+(instructions|prompts?|messages|rules|directions|guidelines)`},
	{"hide-from-user", FindContentInstruction, "reads like an instruction to keep something from the user",
		`\b(do\s+not|don'?t|never)\s+(tell|mention|reveal|show|inform|notify|alert)\b[^.\n]{0,40}\buser\b|\bwithout\s+(telling|informing|notifying|alerting)\s+the\s+user\b|\b(hide|conceal)\b[^.\n]{0,30}\bfrom\s+the\s+user\b|\bthe\s+user\s+(must|should)\s+not\s+(know|see|be\s+told)\b`},
	{"read-secrets", FindContentInstruction, "reads like an instruction to read or send files or secrets",
		`\b(read|cat|open|send|include|pass|upload|attach|leak|exfiltrate|post|forward|copy)\b[^.\n]{0,60}(~/\.ssh|\bid_rsa\b|\bid_ed25519\b|~/\.env|\.aws/credentials|\.netrc\b|/etc/shadow|\bmcp\.json\b|claude_desktop_config|\bprivate\s+keys?\b|\bapi[_ -]?keys?\b|\bssh\s+keys?\b)`},
	{"model-markup", FindContentMarkup, "holds markup aimed at a model",
		`<\s*/?\s*(important|system|instructions?|secret|hidden|admin|critical|assistant|note[_ ]?to[_ ](?:ai|model|assistant|llm))\s*>|\[/?inst\]|<\|\s*(im_start|im_end|system|assistant|user|endoftext)\s*\|>`},
}

// compiledRules are ContentRules compiled on first use, not at start-up.
var compiledRules = sync.OnceValue(func() []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(ContentRules))
	for i, r := range ContentRules {
		out[i] = regexp.MustCompile(`(?i)` + r.Pattern)
	}
	return out
})

// phraseMatch is a rule that matched and where.
type phraseMatch struct {
	rule PhraseRule
	at   int
}

// maxPhraseText bounds how much of one string the phrase rules read.
const maxPhraseText = 64 << 10

// matchPhrases returns the rules s matches, one match each, in the table's order.
func matchPhrases(s string) []phraseMatch {
	if len(s) > maxPhraseText {
		s = s[:maxPhraseText]
	}
	if !mayMatchPhrase(s) {
		return nil
	}
	var out []phraseMatch
	for i, re := range compiledRules() {
		if loc := re.FindStringIndex(s); loc != nil {
			out = append(out, phraseMatch{ContentRules[i], loc[0]})
		}
	}
	return out
}

// mayMatchPhrase is a cheap test that lets most names skip the expressions: every rule
// needs a space, a '<', a '[' or a '/'.
func mayMatchPhrase(s string) bool {
	return strings.ContainsAny(s, " \t\n<[/")
}

// asciiLookalikes maps letters of other scripts to the ASCII letter they are drawn like.
var asciiLookalikes = map[rune]rune{
	// Cyrillic
	'а': 'a', 'в': 'b', 'е': 'e', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'с': 'c', 'т': 't', 'у': 'y',
	'х': 'x', 'ѕ': 's', 'і': 'i', 'ј': 'j', 'ԁ': 'd', 'һ': 'h', 'ԛ': 'q', 'ԝ': 'w', 'ӏ': 'l', 'ѵ': 'v',
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T', 'Х': 'X',
	'Ѕ': 'S', 'І': 'I', 'Ј': 'J', 'Ү': 'Y',
	// Greek
	'α': 'a', 'ο': 'o', 'ρ': 'p', 'ν': 'v', 'ι': 'i', 'κ': 'k', 'υ': 'u', 'τ': 't',
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P',
	'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
	// Latin look-alikes outside ASCII
	'ı': 'i', 'ℓ': 'l', 'ɑ': 'a', 'ɡ': 'g',
}

// scriptOf names the script of a letter, for the scripts names are mixed from.
func scriptOf(r rune) string {
	for _, s := range []struct {
		name string
		t    *unicode.RangeTable
	}{{"Latin", unicode.Latin}, {"Cyrillic", unicode.Cyrillic}, {"Greek", unicode.Greek}, {"Armenian", unicode.Armenian},
		{"Cherokee", unicode.Cherokee}, {"Han", unicode.Han}, {"Arabic", unicode.Arabic}, {"Hebrew", unicode.Hebrew}} {
		if unicode.Is(s.t, r) {
			return s.name
		}
	}
	if unicode.IsLetter(r) {
		return "another script"
	}
	return ""
}

// confusable says what makes a name deceptive: letters that look like ASCII ones
// (fullwidth forms, Cyrillic or Greek look-alikes) mixed with ASCII letters or making up
// the whole name, or letters of two scripts. "" when nothing does.
func confusable(name string) string {
	scripts := map[string]bool{}
	var order []string
	ascii, lookalike := 0, 0
	var firstLook rune
	letters := 0
	for _, r := range name {
		if !unicode.IsLetter(r) {
			continue
		}
		letters++
		if r < 0x80 {
			ascii++
		}
		if _, ok := asciiLookalikes[r]; ok || r >= 0xff21 && r <= 0xff5a {
			lookalike++
			if firstLook == 0 {
				firstLook = r
			}
		}
		if s := scriptOf(r); s != "" && !scripts[s] {
			scripts[s] = true
			order = append(order, s)
		}
	}
	looks := func() string {
		like := asciiLookalikes[firstLook]
		if like == 0 {
			like = firstLook - 0xfee0 // fullwidth
		}
		return fmt.Sprintf("%q (U+%04X, %s) looks like %q", firstLook, firstLook, scriptOf(firstLook), like)
	}
	switch {
	case lookalike > 0 && ascii > 0:
		return "mixes ASCII letters with look-alikes: " + looks()
	case lookalike > 0 && lookalike == letters:
		return "is made of look-alikes of ASCII letters: " + looks()
	case len(order) > 1:
		return "mixes scripts: " + strings.Join(order, " and ")
	}
	return ""
}
