package explorer

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif"  // decodes GIF headers for pixel sizes
	_ "image/jpeg" // decodes JPEG headers for pixel sizes
	_ "image/png"  // decodes PNG headers for pixel sizes
	"path"
	"strings"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/secret"
	"github.com/mcpscope/mcpscope/ui/form"
	"github.com/mcpscope/mcpscope/ui/internal/common"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// Methods whose results are shown by content type (see traffic.RendersResult).
const (
	methodToolsCall     = traffic.MethodToolsCall
	methodPromptsGet    = traffic.MethodPromptsGet
	methodResourcesRead = traffic.MethodResourcesRead
)

// ResultEnv is what rendering a result needs besides the result itself: the tools'
// outputSchemas (from the explorer's tools list) and the negotiated revision, which says
// which content types are known.
type ResultEnv struct {
	OutputSchema func(tool string) json.RawMessage
	Revision     protocol.Revision
	Shown        int // the most bytes of texts and JSON shown; 0: resultShownBytes
	// Mask masks the result's secrets before it is laid out, so a secret the layout wraps
	// over two lines is masked all the same (the screen's last pass sees one line at a time).
	Mask *secret.Masker
	// Findings are what the response frame was flagged with (protocol.Check): shown above
	// the result, which is then shown as received too.
	Findings []string
}

// resultMedia is a part of a result that can be saved to a file.
type resultMedia struct {
	what string // image, audio, blob
	mime string
	name string // a file name for it
	data []byte
}

// ResultView is a result rendered for one width; Lines are its screen lines.
type ResultView struct {
	lines     []string
	media     []resultMedia
	links     []string // resource_link uris, in order
	toolError bool
	findings  int   // problems the renderer found (unknown types, schema mismatch …)
	hidden    int64 // bytes of text and JSON past the budget, not shown
}

// Lines are the screen lines of the rendered result.
func (v ResultView) Lines() []string { return v.lines }

// resultRenderer lays out one result.
type resultRenderer struct {
	s    *Styles
	k    *KeyMap
	w    int
	env  ResultEnv
	name string // the tool or prompt, or the resource uri: names saved files
	left int    // bytes of text and JSON still to show (see resultShownBytes)
	out  ResultView
}

// RenderResult renders the result of method (tools/call, prompts/get, resources/read) for
// a pane w cells wide. tool names the tool of a tools/call, for its outputSchema. Nothing
// the server sent is dropped: what the renderer does not understand is shown as JSON with
// a finding. Its texts and JSON together show at most env.Shown bytes; the rest is
// counted in hidden and said where it is cut.
func RenderResult(s *Styles, k *KeyMap, method, tool string, result json.RawMessage, env ResultEnv, w int) ResultView {
	if env.Mask != nil {
		result = env.Mask.Bytes(result)
	}
	r := &resultRenderer{s: s, k: k, w: w, env: env, name: tool, left: env.Shown}
	if r.left <= 0 {
		r.left = resultShownBytes
	}
	for _, f := range env.Findings {
		r.finding(f)
	}
	_, obj, err := protocol.OrderedObject(result)
	if err != nil {
		r.finding("the result is not a JSON object: " + err.Error())
		r.json(result, " ")
		return r.out
	}
	switch method {
	case methodToolsCall:
		r.toolResult(tool, obj)
	case methodPromptsGet:
		r.promptResult(obj)
	case methodResourcesRead:
		r.readResult(obj)
	default: // events/poll and the like: the result as it came
		r.json(result, " ")
		return r.out
	}
	if len(obj) == 0 || method == methodToolsCall && obj["content"] == nil || len(env.Findings) > 0 {
		// An empty result, a tool's without content, or one the frame was flagged for, is
		// shown as it came: what was sent, beside why it is flagged.
		r.add("", " "+r.s.Muted.Render("as received:"))
		r.json(result, "  ")
	}
	return r.out
}

func (r *resultRenderer) add(lines ...string) { r.out.lines = append(r.out.lines, lines...) }

// prose shows text the server sent, escaped as every view escapes it (escapeProse), as
// much of it as the budget leaves.
func (r *resultRenderer) prose(text, pad string) {
	shown := text[:r.take(text)]
	r.add(textfmt.WrapProse(r.s.Text, escapeProse(shown), pad, r.w)...)
	r.more(len(text)-len(shown), pad)
}

// json shows raw as coloured JSON, as much of it as the budget leaves.
func (r *resultRenderer) json(raw json.RawMessage, pad string) {
	if n := r.take(string(raw)); n < len(raw) {
		r.add(jsonHeadLines(r.s, raw[:n], pad, r.w)...)
		r.more(len(raw)-n, pad)
		return
	}
	r.add(StyledJSONLines(r.s, raw, pad, r.w)...)
}

// finding shows a problem of the result in the findings' colour.
func (r *resultRenderer) finding(text string) {
	r.out.findings++
	r.add(textfmt.WrapProse(r.s.Finding, "⚠ "+escapeProse(text), " ", r.w)...)
}

func (r *resultRenderer) toolResult(tool string, obj map[string]json.RawMessage) {
	s := r.s
	var isErr bool
	_ = json.Unmarshal(obj["isError"], &isErr)
	if isErr {
		r.out.toolError = true
		r.add(" " + s.BadgeError.Render("✗ tool error") + s.Error.Render("  the tool ran and reported a failure (isError: true)"))
		r.add(textfmt.WrapProse(s.Muted, "This is a tool execution error inside a result, not a JSON-RPC error: the model is meant to see it.", " ", r.w)...)
	}
	var blocks []json.RawMessage
	if c, ok := obj["content"]; ok {
		if json.Unmarshal(c, &blocks) != nil {
			r.finding("content is not an array")
			r.json(c, "  ")
		}
	}
	for _, b := range blocks {
		r.block(b, " ")
	}
	if len(blocks) == 0 && obj["content"] != nil {
		r.add(" " + s.Muted.Render("(no content blocks)"))
	}
	if obj["content"] == nil {
		r.finding("the result has no content array: a tools/call result must carry one")
	}
	var schema json.RawMessage
	if r.env.OutputSchema != nil {
		schema = r.env.OutputSchema(tool)
	}
	sc, hasSC := obj["structuredContent"]
	if hasSC {
		r.add("", " "+s.PaneTitle.Render("Structured content"))
		r.json(sc, "   ")
	}
	switch {
	case hasSC && len(schema) > 0:
		probs := form.Check(schema, sc)
		if len(probs) == 0 {
			r.add(" " + s.Response.Render("✓ matches the tool's outputSchema"))
			break
		}
		r.finding("structuredContent does not match the tool's outputSchema:")
		for _, p := range probs {
			r.add(textfmt.WrapProse(s.Finding, "  ✗ "+strings.Replace(p.String(), "arguments", "structuredContent", 1), " ", r.w)...)
		}
	case !hasSC && len(schema) > 0 && !isErr:
		r.finding("the tool declares an outputSchema, so a result that is not an error must carry structuredContent")
	}
}

func (r *resultRenderer) promptResult(obj map[string]json.RawMessage) {
	s := r.s
	var desc string
	if json.Unmarshal(obj["description"], &desc) == nil && desc != "" {
		r.add(textfmt.WrapProse(s.Subtle, escapeProse(desc), " ", r.w)...)
	}
	var msgs []json.RawMessage
	if json.Unmarshal(obj["messages"], &msgs) != nil {
		r.finding("messages is not an array")
		r.json(obj["messages"], "  ")
		return
	}
	for i, raw := range msgs {
		var m struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			r.finding(fmt.Sprintf("message %d is not an object", i+1))
			r.json(raw, "  ")
			continue
		}
		if i > 0 || desc != "" {
			r.add("")
		}
		role := s.Request
		if m.Role == "assistant" {
			role = s.Response
		}
		r.add(" " + role.Render(escapeText(m.Role)+" ›"))
		// A content array is allowed by later revisions; a single block by all.
		var many []json.RawMessage
		if json.Unmarshal(m.Content, &many) == nil {
			for _, b := range many {
				r.block(b, "   ")
			}
			continue
		}
		r.block(m.Content, "   ")
	}
}

func (r *resultRenderer) readResult(obj map[string]json.RawMessage) {
	var contents []json.RawMessage
	if json.Unmarshal(obj["contents"], &contents) != nil {
		r.finding("contents is not an array")
		r.json(obj["contents"], "  ")
		return
	}
	if len(contents) == 0 {
		r.add(" " + r.s.Muted.Render("(no contents)"))
	}
	for i, c := range contents {
		if i > 0 {
			r.add("")
		}
		r.resource(c, " ")
	}
}

// contentBlock is the union of the content block fields the renderer reads.
type contentBlock struct {
	Type        string          `json:"type"`
	Text        string          `json:"text"`
	Data        string          `json:"data"`
	MimeType    string          `json:"mimeType"`
	URI         string          `json:"uri"`
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Size        *int64          `json:"size"`
	Resource    json.RawMessage `json:"resource"`
}

// block renders one content block.
func (r *resultRenderer) block(raw json.RawMessage, pad string) {
	s := r.s
	var b contentBlock
	if err := json.Unmarshal(raw, &b); err != nil {
		r.finding("a content block is not an object: " + err.Error())
		r.json(raw, pad)
		return
	}
	tag := func(what string) string { return pad + s.Badge.Render("["+what+"]") + " " }
	switch b.Type {
	case "text":
		if b.Text == "" {
			r.add(pad + r.s.Muted.Render("(empty text)"))
			break
		}
		r.prose(b.Text, pad)
	case "image", "audio":
		data, err := base64.StdEncoding.DecodeString(b.Data)
		line := tag(b.Type) + s.Text.Render(escapeText(orNone(b.MimeType)))
		if err != nil {
			r.add(line)
			r.finding(b.Type + " data is not valid base64: " + err.Error())
			break
		}
		if b.Type == "image" {
			line += s.Text.Render(pixelSize(data))
		}
		line += s.Muted.Render(" · "+textfmt.Bytes(int64(len(data)))) + r.saveHint(b.Type, b.MimeType, "", data)
		r.add(line)
	case "resource_link":
		label := b.Title
		if label == "" {
			label = b.Name
		}
		line := tag("link") + s.Bold.Render(escapeText(label)) + " " + s.Accent.Render(escapeText(b.URI))
		if b.MimeType != "" {
			line += s.Muted.Render(" · " + escapeText(b.MimeType))
		}
		if b.Size != nil {
			line += s.Muted.Render(" · " + textfmt.Bytes(*b.Size))
		}
		r.out.links = append(r.out.links, b.URI)
		r.add(line + s.Muted.Render(fmt.Sprintf(" · %s follows it", r.k.FollowLink.Help().Key)))
		if b.Description != "" {
			r.add(textfmt.WrapProse(s.Subtle, escapeProse(b.Description), pad+"  ", r.w)...)
		}
	case "resource":
		r.add(tag("embedded resource"))
		r.resource(b.Resource, pad+"  ")
	default:
		what := fmt.Sprintf("content block of unknown type %q", b.Type)
		if b.Type == "" {
			what = "content block without a type"
		}
		r.finding(what + ": " + protocol.Explain(protocol.FindUnknownContent))
		r.json(raw, pad+"  ")
		return
	}
	if b.Type != "" && !r.knownType(b.Type) {
		r.finding(fmt.Sprintf("%q content is not defined in %s: %s", b.Type, r.env.Revision, protocol.Explain(protocol.FindUnknownContent)))
	}
}

// knownType reports whether t is a content type of the negotiated revision (any revision's,
// before the handshake says which).
func (r *resultRenderer) knownType(t string) bool {
	if r.env.Revision.Known() {
		return protocol.KnownContentType(r.env.Revision, t)
	}
	return true
}

// resource renders resource contents: uri and mime type, then the text or the blob's size.
func (r *resultRenderer) resource(raw json.RawMessage, pad string) {
	s := r.s
	var c struct {
		URI      string  `json:"uri"`
		MimeType string  `json:"mimeType"`
		Text     *string `json:"text"`
		Blob     *string `json:"blob"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		r.finding("resource contents are not an object")
		r.json(raw, pad)
		return
	}
	head := pad + s.Accent.Render(escapeText(c.URI)) + s.Muted.Render(" · "+escapeText(orNone(c.MimeType)))
	switch {
	case c.Text != nil:
		r.add(head)
		r.appPage(raw, c.URI, c.MimeType, pad)
		r.prose(*c.Text, pad+"  ")
	case c.Blob != nil:
		data, err := base64.StdEncoding.DecodeString(*c.Blob)
		if err != nil {
			r.add(head)
			r.finding("blob is not valid base64: " + err.Error())
			return
		}
		line := head + s.Text.Render(" · blob "+textfmt.Bytes(int64(len(data))))
		if strings.HasPrefix(c.MimeType, "image/") {
			line += s.Text.Render(pixelSize(data))
		}
		r.add(line + r.saveHint("blob", c.MimeType, c.URI, data))
		r.appPage(raw, c.URI, c.MimeType, pad)
		if textMime(c.MimeType) && utf8.Valid(data) {
			r.blobText(data, pad+"  ")
		}
	default:
		r.add(head)
		r.finding("resource contents carry neither text nor blob")
	}
}

// blobTextShown is the most bytes of a textual blob shown as text; the whole can be saved.
const blobTextShown = 64 << 10

// blobText shows a textual blob's decoded text, up to blobTextShown bytes.
func (r *resultRenderer) blobText(data []byte, pad string) {
	if len(data) <= blobTextShown {
		r.prose(string(data), pad)
		return
	}
	cut := blobTextShown
	for cut > 0 && !utf8.RuneStart(data[cut]) {
		cut--
	}
	r.prose(string(data[:cut]), pad)
	r.add(pad + r.s.Muted.Render(fmt.Sprintf("… %s more; save the blob for the whole", textfmt.Bytes(int64(len(data)-cut)))))
}

// textMime reports whether a MIME type names text: text/*, JSON, XML, YAML, JavaScript.
func textMime(mime string) bool {
	t, _, _ := strings.Cut(strings.ToLower(mime), ";")
	t = strings.TrimSpace(t)
	switch {
	case strings.HasPrefix(t, "text/"), strings.HasSuffix(t, "+json"), strings.HasSuffix(t, "+xml"):
		return true
	}
	switch t {
	case "application/json", "application/xml", "application/yaml", "application/x-yaml", "application/javascript", "application/toml":
		return true
	}
	return false
}

// saveHint records a saveable part and says which key saves it.
func (r *resultRenderer) saveHint(what, mime, uri string, data []byte) string {
	name := r.name
	if uri != "" {
		name = path.Base(strings.TrimRight(uri, "/"))
	}
	name = common.SafeName(name)
	if name == "" || name == "." {
		name = what
	}
	if path.Ext(name) == "" {
		name += extFor(mime, what)
	}
	r.out.media = append(r.out.media, resultMedia{what: what, mime: mime, name: name, data: data})
	return r.s.Muted.Render(fmt.Sprintf(" · %s saves it", r.k.SaveMedia.Help().Key))
}

// pixelSize reads an image's width and height from its PNG, JPEG or GIF header.
func pixelSize(data []byte) string {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return " · size unknown"
	}
	return fmt.Sprintf(" · %d×%d px %s", cfg.Width, cfg.Height, strings.ToUpper(format))
}

// extFor is a file extension for a mime type.
func extFor(mime, what string) string {
	switch mime {
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	case "image/svg+xml":
		return ".svg"
	case "audio/wav", "audio/x-wav", "audio/wave":
		return ".wav"
	case "audio/mpeg":
		return ".mp3"
	case "audio/ogg":
		return ".ogg"
	case "application/json":
		return ".json"
	case "application/pdf":
		return ".pdf"
	}
	if what == "audio" {
		return ".audio"
	}
	return ".bin"
}

func orNone(mime string) string {
	if mime == "" {
		return "(no mimeType)"
	}
	return mime
}
