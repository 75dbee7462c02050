package ui

import (
	"bytes"
	"container/list"
	"encoding/json"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// Body limits: past either, a body is cut and a badge offers the full text elsewhere.
const (
	maxBodyLines = 2000
	maxBodyBytes = 256 << 10
)

var bodyLimit = jsonview.Limit{Lines: maxBodyLines, Bytes: maxBodyBytes}

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

// highlightBody highlights raw as pretty JSON at width w in p's colours. Text that is not
// JSON after all is shown as it is, escaped.
func highlightBody(h *jsonview.Highlighter, p *jsonview.Palette, raw []byte, w int) bodyView {
	pretty, err := prettyJSON(raw)
	if err != nil {
		return plainBody(raw, w, "", p.Escape)
	}
	shown, cut, total := limitText(pretty, bodyLimit)
	lines := h.Lines(p, string(shown))
	return bodyView{lines: jsonview.Wrap(lines, w), shown: len(lines), bytes: len(shown), total: total, cut: cut, chroma: true}
}

// HighlightMsg carries a body highlighted off the UI loop, for one entry at one width and
// colour flavour. The detail pane drops it unless it still shows that combination.
type HighlightMsg struct {
	Entry *traffic.Entry
	Width int
	Dark  bool
	body  bodyView
}

// HighlightCmd highlights raw, the frame of e, at width w with the JSON palette of s (the
// dark or the light flavour).
func HighlightCmd(h *jsonview.Highlighter, s *Styles, e *traffic.Entry, raw []byte, w int) tea.Cmd {
	p, dark := s.JSON(), s.Dark
	return func() tea.Msg {
		return HighlightMsg{Entry: e, Width: w, Dark: dark, body: highlightBody(h, p, raw, w)}
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
func limitText(text []byte, lim jsonview.Limit) (shown []byte, cut bool, total int) {
	total = bytes.Count(text, []byte{'\n'}) + 1
	end := len(text)
	if lim.Bytes > 0 && end > lim.Bytes {
		end, cut = cutUTF8(text, lim.Bytes), true
	}
	if lim.Lines > 0 && total > lim.Lines {
		n, i := 0, 0
		for n < lim.Lines {
			j := bytes.IndexByte(text[i:end], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			n++
		}
		if n == lim.Lines {
			end, cut = i-1, true
		}
	}
	return text[:end], cut, total
}

// plainBody shows text exactly as it is (escaped where a terminal must not see it raw),
// hard-wrapped at w.
func plainBody(text []byte, w int, sgr, esc string) bodyView {
	shown, cut, total := limitText(text, bodyLimit)
	lines := jsonview.Plain(shown, sgr, esc)
	return bodyView{lines: jsonview.Wrap(lines, w), shown: len(lines), bytes: len(shown), total: total, cut: cut}
}

// fastBody colours JSON with the one-pass colorizer: what the pane shows until chroma's
// result arrives, and all it shows of a frame larger than the body limit. Only the first
// maxBodyBytes of raw are read (re-indenting never shortens text), so the work is bounded
// whatever the frame's size.
func fastBody(p *jsonview.Palette, raw []byte, w int) bodyView {
	head := raw[:cutUTF8(raw, maxBodyBytes)]
	r := jsonview.Colorize(p, head, jsonview.Options{Indent: true, Limit: bodyLimit})
	v := bodyView{lines: jsonview.Wrap(r.Lines, w), shown: len(r.Lines), bytes: r.Bytes, cut: r.Cut || len(head) < len(raw)}
	if !v.cut {
		v.total = len(r.Lines)
	}
	return v
}

// hlKey names one highlighted body.
type hlKey struct {
	e     *traffic.Entry
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
