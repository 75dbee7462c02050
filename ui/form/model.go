package form

import (
	"encoding/json"
	"errors"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// SubmitMsg is what the form yields when the user sends. Invalid is set when the user
// confirmed sending arguments that do not match the schema.
type SubmitMsg struct {
	Args    json.RawMessage
	Invalid bool
}

// CancelMsg is what the form yields when the user leaves it without sending.
type CancelMsg struct{}

// SubmitCmd yields a SubmitMsg.
func SubmitCmd(args json.RawMessage, invalid bool) tea.Cmd {
	return func() tea.Msg { return SubmitMsg{Args: args, Invalid: invalid} }
}

// CancelCmd yields a CancelMsg.
func CancelCmd() tea.Msg { return CancelMsg{} }

// Options configure a Model.
type Options struct {
	// Styles draw the form; the zero value means DefaultStyles.
	Styles *Styles
	// Keys is the keymap; nil means DefaultKeyMap.
	Keys *KeyMap
	// Initial fills the form instead of the schema's defaults ("edit and re-send").
	Initial json.RawMessage
	// Remembered says Initial is the arguments sent last time, filled in by the form: like
	// a schema default, each value is replaced by the first key typed on it (enter, then a
	// cursor key, keeps it to edit). Without it Initial's values are added to, as a draft's.
	Remembered bool
	// Complete, when set, offers suggestions while a top-level string field is typed.
	Complete CompleteFunc
	// Notes are extra help lines for fields, keyed by the JSON pointer of the field's value
	// in the arguments ("/region"): what the caller knows about a field that the schema
	// does not say, e.g. that its value is also sent as an HTTP header.
	Notes map[string]string
}

type mode int

const (
	modeNavigate mode = iota // moving between fields
	modeEdit                 // typing into a text field
	modeChoose               // picking an enum value or a variant
	modeJSON                 // editing the arguments as JSON
	modeConfirm              // asking whether to send invalid arguments
)

// Model is the form component. Use it by pointer: Update changes it in place.
type Model struct {
	schema *Schema
	st     Styles
	keys   *KeyMap
	root   *field

	rows   []row
	focus  int // index into rows
	offset int // first body line shown
	width  int
	height int

	mode     mode
	input    textinput.Model     // single-line editing
	area     textarea.Model      // multi-line editing
	json     textarea.Model      // the JSON view
	choice   int                 // cursor in an open choice list
	replace  bool                // the field being edited holds its untouched default: typing replaces it
	editFrom string              // the text the edit in progress began with, for ctrl+z
	editKey  bool                // the edit in progress is a map member's key, not its value
	inputSt  [2]textinput.Styles // the single-line editor's styles: plain, and the default selected

	problems   []Problem
	byPtr      map[string][]string
	pending    json.RawMessage // arguments awaiting the send-anyway confirmation
	asked      mode            // the mode the send-anyway confirmation returns to
	status     string          // a message for the user, such as a failed editor
	jsonErr    string          // why the JSON view's text cannot be applied
	jsonMarked []string        // what the JSON view's text holds that the form cannot show
	editorID   int             // identifies the latest $EDITOR session
	undo       []undoStep      // the form before each change that threw values away, last at the end

	id       uint64       // tells this form's suggestions from another's
	complete CompleteFunc // asks for suggestions, or nil
	sugg     suggest
	notes    map[string]string // Options.Notes
}

// maxJSONLines bounds the JSON view's lines (and sets its line numbers' width).
const maxJSONLines = 9999

// New builds a form for s. With opts.Initial the form starts from that value; otherwise
// from the schema's defaults.
func New(s *Schema, opts Options) *Model {
	m := &Model{schema: s, keys: opts.Keys, width: 80, height: 24, id: formIDs.Add(1), complete: opts.Complete, notes: opts.Notes}
	m.sugg.sel = -1
	if opts.Styles != nil {
		m.st = *opts.Styles
	} else {
		m.st = DefaultStyles()
	}
	if m.keys == nil {
		m.keys = DefaultKeyMap()
	}
	m.input = textinput.New()
	m.input.Prompt = ""
	m.inputSt[0] = m.input.Styles()
	m.inputSt[1] = m.inputSt[0]
	m.inputSt[1].Focused.Text = m.st.Placeholder.Reverse(true) // drawn as a selection
	m.area = textarea.New()
	m.area.ShowLineNumbers = false
	m.area.Prompt = "│ "
	m.area.MaxHeight = 0
	m.json = textarea.New()
	// MaxHeight also sizes the line numbers' column (its digits): 0 would give one digit
	// and shift the text from line 10 on. The JSON view holds at most this many lines
	// ($EDITOR has no limit).
	m.json.MaxHeight = maxJSONLines
	m.json.ShowLineNumbers = true
	if opts.Initial != nil && json.Valid(opts.Initial) {
		m.load(opts.Initial)
		if opts.Remembered {
			m.root.markLast()
		}
	} else {
		m.root = newField(s, nil, "", true, true, nil)
	}
	m.rebuild()
	m.revalidate()
	m.syncKeys()
	return m
}

// Empty reports whether the tool takes no arguments: the caller can call it at once.
func (m *Model) Empty() bool { return m.schema.Empty() }

// KeyMap is the form's keymap, with the bindings that apply now enabled.
func (m *Model) KeyMap() *KeyMap { return m.keys }

// SetSize sets the exact size View draws.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = max(w, 10), max(h, 3)
	m.json.SetWidth(m.width)
	m.json.SetHeight(max(m.height-3, 1))
	m.clampScroll()
}

// Init starts nothing; the form needs no command to begin.
func (m *Model) Init() tea.Cmd { return nil }

// Value is the arguments as JSON. In the JSON view it is that text; an error says it is
// not valid JSON, or that a field holds text that is not its type (the arguments then
// carry that text as a string).
func (m *Model) Value() (json.RawMessage, error) {
	if m.mode == modeJSON {
		t := []byte(m.json.Value())
		if !json.Valid(t) {
			return nil, errors.New("the JSON view does not hold valid JSON")
		}
		return compact(t), nil
	}
	return m.formValue()
}

// formValue is the arguments the fields hold, whatever the mode; an error says a field
// holds text that is not its type.
func (m *Model) formValue() (json.RawMessage, error) {
	var probs []Problem
	v := m.root.value(&probs)
	if len(probs) > 0 {
		return v, errors.New(probs[0].String())
	}
	return v, nil
}

// Validate checks the arguments against the schema; problems are ordered as their fields
// appear in the form.
func (m *Model) Validate() []Problem {
	var local []Problem
	var args json.RawMessage
	if m.mode == modeJSON {
		v, err := m.Value()
		if err != nil {
			return []Problem{{Message: err.Error()}}
		}
		args = v
	} else {
		args = m.root.value(&local)
	}
	variants := map[string]int{}
	m.root.chosenVariants(variants)
	probs := m.schema.validate(args, func(p string) (int, bool) { i, ok := variants[p]; return i, ok })
	bad := map[string]bool{}
	for _, p := range local {
		bad[p.Pointer] = true
	}
	out := local
	for _, p := range probs {
		if !bad[p.Pointer] {
			out = append(out, p)
		}
	}
	order := map[string]int{}
	for i, r := range m.rows {
		if r.f != nil {
			if _, ok := order[r.f.pointer()]; !ok {
				order[r.f.pointer()] = i
			}
		}
	}
	sortProblems(out, order)
	return out
}

// Problems is the result of the latest check, as shown beside the fields.
func (m *Model) Problems() []Problem { return m.problems }

// revalidate refreshes the problems shown beside the fields.
func (m *Model) revalidate() {
	m.problems = m.Validate()
	m.byPtr = map[string][]string{}
	for _, p := range m.problems {
		m.byPtr[p.Pointer] = append(m.byPtr[p.Pointer], p.Message)
	}
}

// load replaces the form's state with a JSON value.
func (m *Model) load(v json.RawMessage) {
	m.root = newField(m.schema, nil, "", true, false, nil)
	m.root.set(v, nil)
}

// Update handles a message and returns the command it asks for. Keys go to the field in
// focus; EditedMsg results of this form's $EDITOR come back here.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		m.status = ""
		cmd = m.key(msg)
	case EditedMsg:
		m.edited(msg)
	case SuggestionsMsg:
		m.suggestions(msg)
	case completeDueMsg:
		if msg.form == m.id && msg.seq == m.sugg.seq && m.mode == modeEdit {
			cmd = m.ask()
		}
	default:
		cmd = m.forward(msg)
	}
	m.syncKeys()
	m.syncInput()
	return cmd
}

// forward hands other messages (paste, cursor blink) to the text editor in use.
func (m *Model) forward(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch {
	case m.mode == modeJSON:
		m.json, cmd = m.json.Update(msg)
		if isPaste(msg) {
			m.jsonChanged()
		}
	case m.mode == modeEdit && m.replace && isPaste(msg):
		m.replace = false
		m.clearEdit()
		return m.forward(msg)
	case m.mode == modeEdit && m.editingMultiline():
		m.area, cmd = m.area.Update(msg)
	case m.mode == modeEdit:
		m.input, cmd = m.input.Update(msg)
	}
	if isPaste(msg) {
		m.checkTyped()
	}
	return cmd
}

// isPaste reports whether msg is pasted text.
func isPaste(msg tea.Msg) bool { _, ok := msg.(tea.PasteMsg); return ok }

// key routes a key press by mode.
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	switch m.mode {
	case modeConfirm:
		switch {
		case key.Matches(msg, k.Yes):
			args := m.pending
			m.mode, m.pending = m.asked, nil
			return SubmitCmd(args, true)
		case key.Matches(msg, k.No):
			m.mode, m.pending = m.asked, nil // the JSON view comes back with its text as typed
		}
		return nil
	case modeJSON:
		return m.keyJSON(msg)
	case modeEdit:
		return m.keyEdit(msg)
	case modeChoose:
		return m.keyChoose(msg)
	}
	return m.keyNavigate(msg)
}

// keyNavigate handles keys while moving between fields.
func (m *Model) keyNavigate(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	switch {
	case key.Matches(msg, k.Submit):
		return m.submit()
	case key.Matches(msg, k.Cancel):
		return CancelCmd
	case key.Matches(msg, k.JSON):
		m.openJSON()
	case key.Matches(msg, k.Editor):
		return m.openEditor()
	case key.Matches(msg, k.Next, k.Down):
		m.move(1)
	case key.Matches(msg, k.Prev, k.Up):
		m.move(-1)
	case key.Matches(msg, k.Edit):
		return m.activate()
	case key.Matches(msg, k.Toggle):
		m.toggle()
	case key.Matches(msg, k.Add):
		return m.add()
	case key.Matches(msg, k.Delete):
		m.deleteEntry()
	case key.Matches(msg, k.Rename):
		if f := m.focused(); f != nil && f.member {
			return m.startKeyEdit(f)
		}
	case key.Matches(msg, k.MoveUp):
		m.moveItem(-1)
	case key.Matches(msg, k.MoveDown):
		m.moveItem(1)
	case key.Matches(msg, k.Null):
		m.toggleNull()
	case key.Matches(msg, k.Clear):
		m.clearField()
	case key.Matches(msg, k.Undo):
		m.undoLast()
	case key.Matches(msg, k.Multiline):
		if f := m.focused(); f != nil && f.s.Kind == KindString {
			switch {
			case f.multiline && strings.Contains(f.text, "\n"):
				m.status = "the text has several lines: it stays multi-line"
			default:
				f.multiline = !f.multiline
			}
		}
	default:
		cmd, _ := m.typeInto(msg)
		return cmd
	}
	return nil
}

// keyEdit handles keys while a text field is being edited.
func (m *Model) keyEdit(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	multi := m.editingMultiline()
	if cmd, ok := m.keySuggest(msg); ok {
		return cmd
	}
	switch {
	case key.Matches(msg, k.Submit):
		m.commit()
		return m.submit()
	case key.Matches(msg, k.Commit):
		m.commit()
		return nil
	case key.Matches(msg, k.Next) || !multi && key.Matches(msg, k.Down):
		m.commit()
		m.move(1)
		return nil
	case key.Matches(msg, k.Prev) || !multi && key.Matches(msg, k.Up):
		m.commit()
		m.move(-1)
		return nil
	case !multi && key.Matches(msg, k.Edit):
		if m.editKey { // a key typed: on to its value
			return m.commitKey(true)
		}
		m.commit()
		return nil
	case key.Matches(msg, k.Clear):
		m.replace = false
		m.clearEdit()
		m.checkTyped()
		return m.askLater()
	case key.Matches(msg, k.Undo):
		m.undoEdit()
		return m.askLater()
	case key.Matches(msg, k.Add, k.Delete, k.MoveUp, k.MoveDown):
		// A structural key acts on the field as committed, as in navigation.
		m.commit()
		return m.keyNavigate(msg)
	case structural(msg, k.Add):
		m.status = "no array or map here: " + msg.String() + " adds an item or member" // never text
		return nil
	case structural(msg, k.Delete):
		m.status = "no item or member here: " + msg.String() + " deletes one" // never text
		return nil
	}
	if m.replace {
		m.replace = false
		switch {
		case msg.Text != "":
			m.clearEdit() // the typed text replaces the default
		case msg.Code == tea.KeyBackspace || msg.Code == tea.KeyDelete:
			m.clearEdit() // deletes the default, as if it were selected
			m.checkTyped()
			return m.askLater()
		}
	}
	var cmd tea.Cmd
	if multi {
		m.area, cmd = m.area.Update(msg)
	} else {
		m.input, cmd = m.input.Update(msg)
	}
	m.checkTyped()
	return tea.Batch(cmd, m.askLater())
}

// clearEdit empties the text being edited.
func (m *Model) clearEdit() {
	if m.editingMultiline() {
		m.area.SetValue("")
	} else {
		m.input.SetValue("")
	}
}

// keyChoose handles keys while a choice list is open.
func (m *Model) keyChoose(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	n := len(m.choices())
	switch {
	case key.Matches(msg, k.Up, k.Prev):
		m.choice = (m.choice + n - 1) % max(n, 1)
	case key.Matches(msg, k.Down, k.Next):
		m.choice = (m.choice + 1) % max(n, 1)
	case key.Matches(msg, k.Edit), key.Matches(msg, k.Toggle):
		m.choose(m.choice)
	case key.Matches(msg, k.Commit):
		m.mode = modeNavigate
	}
	return nil
}

// keyJSON handles keys in the JSON view; everything else edits the text.
func (m *Model) keyJSON(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	switch {
	case key.Matches(msg, k.JSON), key.Matches(msg, k.Commit):
		m.closeJSON()
		return nil
	case key.Matches(msg, k.Submit):
		return m.submit()
	case key.Matches(msg, k.Editor):
		return m.openEditor()
	case key.Matches(msg, k.SelectAll):
		// The editor's own selection: drawn highlighted; typing, pasting or backspace
		// replace it, a cursor key ends it.
		m.json.SelectAll()
		return nil
	}
	var cmd tea.Cmd
	m.json, cmd = m.json.Update(msg)
	m.jsonChanged()
	return cmd
}

// jsonChanged checks the JSON view's text again after it changed.
func (m *Model) jsonChanged() {
	m.jsonErr = ""
	m.markJSON()
	m.revalidate()
}

// submit sends valid arguments, or asks before sending invalid ones. From the JSON view
// it sends the text as typed, applied to the form first as leaving the view applies it,
// so that the form behind the question shows what is sent.
func (m *Model) submit() tea.Cmd {
	var args json.RawMessage
	back := modeNavigate
	if m.mode == modeJSON {
		back = modeJSON
		v, ok := m.applyJSON()
		if !ok {
			return nil
		}
		args = v
	} else {
		v, err := m.Value()
		if v == nil {
			m.status = err.Error()
			return nil
		}
		args = v
	}
	m.revalidate()
	if len(m.problems) > 0 {
		m.mode, m.pending, m.asked = modeConfirm, args, back
		return nil
	}
	return SubmitCmd(args, false)
}
