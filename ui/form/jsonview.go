package form

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// EditedMsg carries the text the user saved in $EDITOR back to the form that opened it.
// Parents forward it to the form like any other message.
type EditedMsg struct {
	ID   int // which editor session; stale results are dropped
	Text []byte
	Err  error
}

// pretty indents JSON for reading; invalid JSON is returned as it is.
func pretty(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return string(raw)
	}
	return b.String()
}

// currentText is the arguments as indented JSON text.
func (m *Model) currentText() string {
	if m.mode == modeJSON {
		return m.json.Value()
	}
	var probs []Problem
	return pretty(m.root.value(&probs))
}

// openJSON shows the arguments as editable JSON.
func (m *Model) openJSON() {
	m.commit()
	text := m.currentText()
	m.mode, m.jsonErr = modeJSON, ""
	m.json.SetWidth(m.width)
	m.json.SetHeight(max(m.height-3, 1))
	m.json.SetValue(text)
	m.json.MoveToEnd() // typing adds to the end, never before the text
	m.json.Focus()
	m.markJSON()
}

// markJSON finds what the JSON view's text holds that the form cannot show.
func (m *Model) markJSON() {
	m.jsonMarked = nil
	if text := m.json.Value(); json.Valid([]byte(text)) {
		f := newField(m.schema, nil, "", true, false, nil)
		f.set(json.RawMessage(text), nil)
		f.marked(&m.jsonMarked)
	}
}

// closeJSON applies the JSON text to the form and shows the form again; text that is not
// JSON keeps the view open with the reason.
func (m *Model) closeJSON() {
	if _, ok := m.applyJSON(); !ok {
		return
	}
	m.json.Blur()
	m.mode = modeNavigate
	m.changed()
}

// applyJSON applies the JSON view's text to the form behind it, the view staying open
// with its text as typed: what the form cannot show is kept as JSON and marked. It
// returns the text compacted, which is what sending it sends. Text that is not JSON
// changes nothing; jsonErr says why.
func (m *Model) applyJSON() (json.RawMessage, bool) {
	text := strings.TrimSpace(m.json.Value())
	if text == "" {
		text = "{}"
	}
	if err := checkJSON(text); err != nil {
		m.jsonErr = err.Error()
		return nil, false
	}
	m.jsonErr = ""
	if m.rememberUnless(text, "the JSON view's text") {
		m.load(json.RawMessage(text)) // unchanged text leaves the form as it was, defaults still defaults
	}
	m.changed()
	return compact(json.RawMessage(text)), true
}

// checkJSON says why text is not one JSON value.
func checkJSON(text string) error {
	var v any
	dec := json.NewDecoder(strings.NewReader(text))
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("not valid JSON: %v", err)
	}
	if dec.More() {
		return errors.New("not valid JSON: more than one value")
	}
	return nil
}

// Marked lists the JSON pointers of values the form keeps as JSON because it cannot show
// them: members the schema does not describe and values of another type than the field's.
func (m *Model) Marked() []string {
	var out []string
	m.root.marked(&out)
	return out
}

// openEditor hands the arguments to $EDITOR; the result comes back as an EditedMsg.
func (m *Model) openEditor() tea.Cmd {
	m.commit()
	m.editorID++
	return editorCmd(m.editorID, m.currentText())
}

// edited applies what the user saved in $EDITOR.
func (m *Model) edited(msg EditedMsg) {
	if msg.ID != m.editorID {
		return
	}
	if msg.Err != nil {
		m.status = msg.Err.Error()
		return
	}
	text := strings.TrimSpace(string(msg.Text))
	if m.mode == modeJSON {
		m.json.SetValue(text)
		m.jsonErr = ""
		m.markJSON()
		return
	}
	if err := checkJSON(text); err != nil {
		m.openJSON()
		m.json.SetValue(text)
		m.jsonErr = err.Error()
		m.markJSON()
		return
	}
	if m.rememberUnless(text, "the editor's text") {
		m.load(json.RawMessage(text))
	}
	m.changed()
}

// editorCmd writes text to a temporary file, runs the user's editor on it with the
// terminal handed over, and reads the file back.
func editorCmd(id int, text string) tea.Cmd {
	return func() tea.Msg {
		argv, err := editorArgv(os.Getenv, exec.LookPath)
		if err != nil {
			return EditedMsg{ID: id, Err: err}
		}
		f, err := os.CreateTemp("", "mcpscope-args-*.json")
		if err != nil {
			return EditedMsg{ID: id, Err: fmt.Errorf("temporary file: %w", err)}
		}
		path := f.Name()
		_, werr := f.WriteString(text + "\n")
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			_ = os.Remove(path)
			return EditedMsg{ID: id, Err: fmt.Errorf("temporary file: %w", werr)}
		}
		c := exec.Command(argv[0], append(argv[1:], path)...)
		return tea.ExecProcess(c, func(runErr error) tea.Msg {
			defer os.Remove(path)
			if runErr != nil {
				return EditedMsg{ID: id, Err: fmt.Errorf("%s: %w", argv[0], runErr)}
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return EditedMsg{ID: id, Err: fmt.Errorf("reading the edited arguments: %w", err)}
			}
			return EditedMsg{ID: id, Text: b}
		})()
	}
}

// editorArgv is $VISUAL or $EDITOR split on spaces, or the first of vi and nano installed.
func editorArgv(getenv func(string) string, look func(string) (string, error)) ([]string, error) {
	for _, env := range []string{"VISUAL", "EDITOR"} {
		if v := strings.Fields(getenv(env)); len(v) > 0 {
			if _, err := look(v[0]); err != nil {
				return nil, fmt.Errorf("$%s is %q, which cannot be run: %v", env, strings.Join(v, " "), err)
			}
			return v, nil
		}
	}
	for _, d := range []string{"vi", "nano"} {
		if _, err := look(d); err == nil {
			return []string{d}, nil
		}
	}
	return nil, errors.New("no editor found (tried vi, nano): set $EDITOR")
}

// jsonSelectedHint says what the selected JSON text does with the next key.
const jsonSelectedHint = "all selected: typing or pasting replaces it · backspace deletes it · ←/→ keep it"
