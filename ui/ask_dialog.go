package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/browser"
	"github.com/mcpscope/mcpscope/ui/form"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

type askKind int

const (
	askSampling askKind = iota
	askElicitForm
	askElicitURL
)

// stopReasons are what the user may say ended their sampling reply.
var stopReasons = []string{"endTurn", "stopSequence", "maxTokens"}

// defaultSamplingModel is the model name a sampling reply reports unless the user changes it.
const defaultSamplingModel = "mcpscope-user"

// askDialog is the dialog for one request waiting for the user.
type askDialog struct {
	q    *Ask
	kind askKind

	origin string   // which request asks, in words
	info   []string // what the server sent, as plain lines (escaped when drawn)

	// Sampling.
	reply textarea.Model
	model textinput.Model
	stop  int // index into stopReasons
	field int // 0 reply, 1 stop reason, 2 model

	// Elicitation.
	message string
	form    *form.Model
	page    urlPage // a URL-mode elicitation's page

	problem string // why the answer could not be sent as it is
}

// newAskDialog reads what q asks into a dialog.
func newAskDialog(c *Common, q *Ask) *askDialog {
	d := &askDialog{q: q, origin: askOrigin(q.Req)}
	switch q.Req.Method {
	case methodSampling:
		d.kind = askSampling
		d.info = samplingInfo(q.Req.Params)
		d.reply = textarea.New()
		d.reply.ShowLineNumbers = false
		d.reply.Placeholder = "Write the reply the server's request gets, as if you were the model."
		d.reply.SetHeight(4)
		d.reply.Focus()
		d.model = textinput.New()
		d.model.Prompt = ""
		d.model.SetValue(defaultSamplingModel)
	default:
		var p struct {
			Mode            string          `json:"mode"`
			Message         string          `json:"message"`
			URL             string          `json:"url"`
			RequestedSchema json.RawMessage `json:"requestedSchema"`
		}
		_ = json.Unmarshal(q.Req.Params, &p)
		d.message = p.Message
		if p.Mode == "url" {
			d.kind = askElicitURL
			d.page = newURLPage(p.Message, p.URL)
			break
		}
		d.kind = askElicitForm
		schema := p.RequestedSchema
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		sch, err := form.Parse(schema)
		if err != nil {
			d.problem = "the requested schema cannot be read: " + err.Error()
			sch, _ = form.Parse(json.RawMessage(`{"type":"object"}`))
		}
		d.form = form.New(sch, form.Options{Styles: c.Styles.Forms()})
	}
	return d
}

// askOrigin says which request asks: a server→client request, or one input request of a
// 2026-07-28 input_required result.
func askOrigin(r *session.ServerRequest) string {
	if r.Key != "" {
		what := "an input_required result"
		if r.Event != nil && r.Event.Frame != nil {
			what = "the input_required result #" + r.Event.Frame.ID.String()
			if r.Event.Corr.Method != "" {
				what += " of " + r.Event.Corr.Method
			}
		}
		return fmt.Sprintf("input request %q of %s", r.Key, what)
	}
	return r.Method + " request #" + r.ID.String()
}

// samplingInfo describes a sampling request: system prompt, model preferences, limits,
// tools, and the messages by role with text shown and media summarised.
func samplingInfo(params json.RawMessage) []string {
	var p struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		SystemPrompt     string   `json:"systemPrompt"`
		IncludeContext   string   `json:"includeContext"`
		MaxTokens        *int64   `json:"maxTokens"`
		Temperature      *float64 `json:"temperature"`
		StopSequences    []string `json:"stopSequences"`
		ModelPreferences *struct {
			Hints []struct {
				Name string `json:"name"`
			} `json:"hints"`
			Cost         *float64 `json:"costPriority"`
			Speed        *float64 `json:"speedPriority"`
			Intelligence *float64 `json:"intelligencePriority"`
		} `json:"modelPreferences"`
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	var out []string
	if err := json.Unmarshal(params, &p); err != nil {
		return []string{"The params cannot be read: " + err.Error(), string(params)}
	}
	if p.SystemPrompt != "" {
		out = append(out, "System prompt: "+p.SystemPrompt)
	}
	var limits []string
	if p.MaxTokens != nil {
		limits = append(limits, fmt.Sprintf("max tokens %d", *p.MaxTokens))
	}
	if p.Temperature != nil {
		limits = append(limits, fmt.Sprintf("temperature %g", *p.Temperature))
	}
	if len(p.StopSequences) > 0 {
		limits = append(limits, fmt.Sprintf("stop sequences %q", p.StopSequences))
	}
	if p.IncludeContext != "" {
		limits = append(limits, "include context "+p.IncludeContext)
	}
	if len(limits) > 0 {
		out = append(out, "Limits: "+strings.Join(limits, " · "))
	}
	if mp := p.ModelPreferences; mp != nil {
		var prefs []string
		for _, h := range mp.Hints {
			prefs = append(prefs, "hint "+h.Name)
		}
		for _, pr := range []struct {
			name string
			v    *float64
		}{{"cost", mp.Cost}, {"speed", mp.Speed}, {"intelligence", mp.Intelligence}} {
			if pr.v != nil {
				prefs = append(prefs, fmt.Sprintf("%s %g", pr.name, *pr.v))
			}
		}
		out = append(out, "Model preferences: "+strings.Join(prefs, " · "))
	}
	if len(p.Tools) > 0 {
		names := make([]string, len(p.Tools))
		for i, t := range p.Tools {
			names[i] = t.Name
		}
		out = append(out, "Tools offered: "+strings.Join(names, ", "))
	}
	out = append(out, fmt.Sprintf("Messages (%d):", len(p.Messages)))
	for _, msg := range p.Messages {
		for i, l := range contentSummary(msg.Content) {
			if i == 0 {
				l = msg.Role + ": " + l
			} else {
				l = strings.Repeat(" ", len(msg.Role)+2) + l
			}
			out = append(out, "  "+l)
		}
	}
	return out
}

// contentSummary is a sampling message's content as lines: text as it is, images, audio
// and other blocks summarised.
func contentSummary(raw json.RawMessage) []string {
	type block struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		MimeType string `json:"mimeType"`
		Data     string `json:"data"`
		Name     string `json:"name"`
	}
	var blocks []block
	if len(raw) > 0 && raw[0] == '[' {
		_ = json.Unmarshal(raw, &blocks)
	} else {
		var b block
		_ = json.Unmarshal(raw, &b)
		blocks = []block{b}
	}
	var out []string
	for _, b := range blocks {
		switch b.Type {
		case "text":
			out = append(out, strings.Split(b.Text, "\n")...)
		case "image", "audio":
			out = append(out, fmt.Sprintf("[%s %s, %s base64]", b.Type, b.MimeType, textfmt.Size(int64(len(b.Data)))))
		case "tool_use":
			out = append(out, "[tool_use "+b.Name+"]")
		default:
			out = append(out, "["+b.Type+"]")
		}
	}
	return out
}

// key handles a key press in the dialog; the command answers the request when the user
// decided.
func (d *askDialog) key(k *ActKeys, msg tea.KeyPressMsg) tea.Cmd {
	switch d.kind {
	case askSampling:
		return d.samplingKey(k, msg)
	case askElicitURL:
		switch {
		case key.Matches(msg, k.OpenURL):
			return openURLCmd(d.page.raw)
		case key.Matches(msg, k.Send), msg.String() == "enter":
			return d.finish(answerCmd(d.q, json.RawMessage(`{"action":"accept"}`), nil))
		case key.Matches(msg, k.Decline):
			return d.finish(answerCmd(d.q, json.RawMessage(`{"action":"decline"}`), nil))
		case key.Matches(msg, k.Dismiss):
			return d.finish(answerCmd(d.q, json.RawMessage(`{"action":"cancel"}`), nil))
		}
		return nil
	}
	if key.Matches(msg, k.Decline) {
		return d.finish(answerCmd(d.q, json.RawMessage(`{"action":"decline"}`), nil))
	}
	return d.form.Update(msg)
}

// finish marks the dialog answered and passes cmd on.
func (d *askDialog) finish(cmd tea.Cmd) tea.Cmd {
	return tea.Batch(cmd, func() tea.Msg { return askDoneMsg{ID: d.q.ID} })
}

// askDoneMsg says the user answered the ask with this ID: its dialog closes.
type askDoneMsg struct{ ID uint64 }

func (d *askDialog) samplingKey(k *ActKeys, msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, k.Send):
		return d.finish(answerCmd(d.q, d.samplingResult(), nil))
	case key.Matches(msg, k.Decline), key.Matches(msg, k.Dismiss):
		return d.finish(answerCmd(d.q, nil, &session.RPCError{Code: -1, Message: "User rejected sampling request"}))
	case key.Matches(msg, k.NextField):
		d.focusField((d.field + 1) % 3)
		return nil
	case key.Matches(msg, k.PrevField):
		d.focusField((d.field + 2) % 3)
		return nil
	}
	var cmd tea.Cmd
	switch d.field {
	case 0:
		d.reply, cmd = d.reply.Update(msg)
	case 1:
		switch msg.String() {
		case "left", "up", "h", "k":
			d.stop = (d.stop + len(stopReasons) - 1) % len(stopReasons)
		case "right", "down", "space", "l", "j", "enter":
			d.stop = (d.stop + 1) % len(stopReasons)
		}
	case 2:
		d.model, cmd = d.model.Update(msg)
	}
	return cmd
}

func (d *askDialog) focusField(i int) {
	d.field = i
	d.reply.Blur()
	d.model.Blur()
	switch i {
	case 0:
		d.reply.Focus()
	case 2:
		d.model.Focus()
	}
}

// samplingResult is the CreateMessageResult of the user's reply.
func (d *askDialog) samplingResult() json.RawMessage {
	model := strings.TrimSpace(d.model.Value())
	if model == "" {
		model = defaultSamplingModel
	}
	b, _ := protocol.Marshal(map[string]any{ // strings only: cannot fail
		"role": "assistant", "content": map[string]any{"type": "text", "text": d.reply.Value()},
		"model": model, "stopReason": stopReasons[d.stop]})
	return b
}

// forward hands other messages (paste, cursor blink, the form's own results) to the input
// in use.
func (d *askDialog) forward(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch d.kind {
	case askSampling:
		switch d.field {
		case 0:
			d.reply, cmd = d.reply.Update(msg)
		case 2:
			d.model, cmd = d.model.Update(msg)
		}
	case askElicitForm:
		cmd = d.form.Update(msg)
	}
	return cmd
}

// submitted answers a form elicitation with the form's content, exactly as the user
// entered it: the spec's TypeScript schema allows any number in ElicitResult content, so
// 7.5 is sent as 7.5.
func (d *askDialog) submitted(args json.RawMessage) tea.Cmd {
	b, _ := protocol.Marshal(map[string]any{"action": "accept", "content": elicitContent(args)}) // raw JSON members: cannot fail
	return d.finish(answerCmd(d.q, b, nil))
}

// elicitContent is the form's value as ElicitResult content: an object whose members are
// the form's values as they are.
func elicitContent(args json.RawMessage) map[string]json.RawMessage {
	var in map[string]json.RawMessage
	if json.Unmarshal(args, &in) != nil || in == nil {
		return map[string]json.RawMessage{}
	}
	return in
}

// openURLCmd opens u in the user's browser (browser.Open: only an http(s) URL).
func openURLCmd(u string) tea.Cmd {
	return func() tea.Msg {
		if err := browser.Open(u); err != nil {
			return StatusMsg{Text: fmt.Sprintf("open the URL: %v (copy it from the dialog)", err), Error: true}
		}
		return StatusMsg{Text: "opened in the browser: " + u}
	}
}
