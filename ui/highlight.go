package ui

import (
	"bytes"
	"container/list"
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// Body limits: past either, a body is cut and a badge offers the full text elsewhere.
const (
	maxBodyLines = 2000
	maxBodyBytes = 256 << 10
)

var bodyLimit = textLimit{lines: maxBodyLines, bytes: maxBodyBytes}

// bodyView is a body ready to draw at one width.
type bodyView struct {
	lines  []string // visual lines, each at most the width it was made for
	shown  int      // logical lines shown
	bytes  int      // bytes of text shown
	total  int      // logical lines of the whole text; 0 when not counted yet
	cut    bool     // the text was longer than the limits
	chroma bool     // highlighted by chroma (not the fast colorizer)
	full   bool     // made from a frame read back whole from the recording
	err    string   // why the whole frame could not be read back
}

// Highlighter colours pretty JSON with chroma. The lexer, the two styles and the escape
// sequence of every token type are built once; a Highlighter is safe for concurrent use and
// is only called from commands, off the UI loop.
type Highlighter struct {
	lexer       chroma.Lexer
	dark, light map[chroma.TokenType]string
	darkStyle   *chroma.Style
	lightStyle  *chroma.Style
}

// Chroma styles for dark and light terminals.
const (
	chromaDark  = "github-dark"
	chromaLight = "github"
)

// NewHighlighter loads the JSON lexer and the dark and light styles.
func NewHighlighter() *Highlighter {
	lx := lexers.Get("json")
	if lx == nil {
		lx = lexers.Fallback
	}
	h := &Highlighter{lexer: chroma.Coalesce(lx), darkStyle: styles.Get(chromaDark), lightStyle: styles.Get(chromaLight)}
	types := []chroma.TokenType{chroma.Text, chroma.Whitespace, chroma.CommentSingle, chroma.KeywordConstant,
		chroma.LiteralNumberFloat, chroma.LiteralNumberInteger, chroma.LiteralStringDouble, chroma.NameTag,
		chroma.Punctuation, chroma.Error}
	h.dark, h.light = map[chroma.TokenType]string{}, map[chroma.TokenType]string{}
	for _, t := range types {
		h.dark[t] = entrySGR(h.darkStyle.Get(t))
		h.light[t] = entrySGR(h.lightStyle.Get(t))
	}
	return h
}

// entrySGR is the escape sequence that draws a chroma style entry (foreground and weight;
// the terminal's own background stays).
func entrySGR(e chroma.StyleEntry) string {
	var parts []string
	if e.Colour.IsSet() {
		parts = append(parts, fmt.Sprintf("38;2;%d;%d;%d", e.Colour.Red(), e.Colour.Green(), e.Colour.Blue()))
	}
	if e.Bold == chroma.Yes {
		parts = append(parts, "1")
	}
	if e.Italic == chroma.Yes {
		parts = append(parts, "3")
	}
	if e.Underline == chroma.Yes {
		parts = append(parts, "4")
	}
	if len(parts) == 0 {
		return ""
	}
	return "\x1b[" + strings.Join(parts, ";") + "m"
}

func (h *Highlighter) sgr(dark bool, t chroma.TokenType) string {
	m, st := h.light, h.lightStyle
	if dark {
		m, st = h.dark, h.darkStyle
	}
	if s, ok := m[t]; ok {
		return s
	}
	return entrySGR(st.Get(t))
}

// Lines tokenises text and returns it as logical lines; esc draws escaped characters.
func (h *Highlighter) Lines(text string, dark bool, esc string) []sline {
	it, err := h.lexer.Tokenise(nil, text)
	if err != nil {
		return plainLines([]byte(text), "", esc)
	}
	var out []sline
	var cur sline
	for t := it(); t != chroma.EOF; t = it() {
		sgr := h.sgr(dark, t.Type)
		v := t.Value
		for {
			i := strings.IndexByte(v, '\n')
			if i < 0 {
				cur = appendEscaped(cur, v, sgr, esc)
				break
			}
			cur = appendEscaped(cur, v[:i], sgr, esc)
			out = append(out, cur)
			cur, v = nil, v[i+1:]
		}
	}
	return append(out, cur)
}

// body highlights raw as pretty JSON at width w. Text that is not JSON after all is shown as
// it is, escaped.
func (h *Highlighter) body(raw []byte, w int, dark bool, esc string) bodyView {
	pretty, err := prettyJSON(raw)
	if err != nil {
		return plainBody(raw, w, "", esc)
	}
	shown, cut, total := limitText(pretty, bodyLimit)
	lines := h.Lines(string(shown), dark, esc)
	return bodyView{lines: wrapLines(lines, w), shown: len(lines), bytes: len(shown), total: total, cut: cut, chroma: true}
}

// HighlightMsg carries a body highlighted off the UI loop, for one entry at one width and
// colour flavour. The detail pane drops it unless it still shows that combination.
type HighlightMsg struct {
	Entry *Entry
	Width int
	Dark  bool
	body  bodyView
}

// HighlightCmd highlights raw, the frame of e, at width w in the dark or light flavour.
func HighlightCmd(h *Highlighter, e *Entry, raw []byte, w int, dark bool, esc string) tea.Cmd {
	return func() tea.Msg {
		return HighlightMsg{Entry: e, Width: w, Dark: dark, body: h.body(raw, w, dark, esc)}
	}
}

// prettyJSON indents raw with two spaces, dropping surrounding white space.
func prettyJSON(raw []byte) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(len(raw) + len(raw)/2)
	if err := json.Indent(&b, bytes.TrimSpace(raw), "", "  "); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// limitText cuts text at lim. It returns the part to show, whether it cut, and the number
// of lines of the whole text.
func limitText(text []byte, lim textLimit) (shown []byte, cut bool, total int) {
	total = bytes.Count(text, []byte{'\n'}) + 1
	end := len(text)
	if lim.bytes > 0 && end > lim.bytes {
		end, cut = cutUTF8(text, lim.bytes), true
	}
	if lim.lines > 0 && total > lim.lines {
		n, i := 0, 0
		for n < lim.lines {
			j := bytes.IndexByte(text[i:end], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			n++
		}
		if n == lim.lines {
			end, cut = i-1, true
		}
	}
	return text[:end], cut, total
}

// plainLines splits text into escaped logical lines drawn in sgr.
func plainLines(text []byte, sgr, esc string) []sline {
	var out []sline
	for {
		i := bytes.IndexByte(text, '\n')
		if i < 0 {
			return append(out, appendEscaped(nil, text, sgr, esc))
		}
		out = append(out, appendEscaped(nil, text[:i], sgr, esc))
		text = text[i+1:]
	}
}

// plainBody shows text exactly as it is (escaped where a terminal must not see it raw),
// hard-wrapped at w.
func plainBody(text []byte, w int, sgr, esc string) bodyView {
	shown, cut, total := limitText(text, bodyLimit)
	lines := plainLines(shown, sgr, esc)
	return bodyView{lines: wrapLines(lines, w), shown: len(lines), bytes: len(shown), total: total, cut: cut}
}

// fastBody colours JSON with the one-pass colorizer: what the pane shows until chroma's
// result arrives, and all it shows of a frame larger than the body limit. Only the first
// maxBodyBytes of raw are read (re-indenting never shortens text), so the work is bounded
// whatever the frame's size.
func fastBody(p *jsonPalette, raw []byte, w int) bodyView {
	head := raw[:cutUTF8(raw, maxBodyBytes)]
	c := &colorizer{p: p, indent: true, limit: bodyLimit}
	lines := c.colorize(head)
	v := bodyView{lines: wrapLines(lines, w), shown: len(lines), bytes: c.used, cut: c.cut || len(head) < len(raw)}
	if !v.cut {
		v.total = len(lines)
	}
	return v
}

// hlKey names one highlighted body.
type hlKey struct {
	e     *Entry
	width int
	dark  bool
}

// hlCache is a small LRU of highlighted bodies.
type hlCache struct {
	max int
	ll  *list.List
	m   map[hlKey]*list.Element
}

type hlItem struct {
	k hlKey
	v bodyView
}

// highlightCacheSize is how many highlighted bodies the detail pane keeps.
const highlightCacheSize = 64

func newHLCache(n int) *hlCache {
	return &hlCache{max: n, ll: list.New(), m: map[hlKey]*list.Element{}}
}

func (c *hlCache) get(k hlKey) (bodyView, bool) {
	el, ok := c.m[k]
	if !ok {
		return bodyView{}, false
	}
	c.ll.MoveToFront(el)
	return el.Value.(*hlItem).v, true
}

func (c *hlCache) put(k hlKey, v bodyView) {
	if el, ok := c.m[k]; ok {
		el.Value.(*hlItem).v = v
		c.ll.MoveToFront(el)
		return
	}
	c.m[k] = c.ll.PushFront(&hlItem{k, v})
	for c.ll.Len() > c.max {
		old := c.ll.Back()
		c.ll.Remove(old)
		delete(c.m, old.Value.(*hlItem).k)
	}
}

func (c *hlCache) len() int { return c.ll.Len() }
