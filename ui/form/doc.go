// Package form turns a tool's JSON Schema (its inputSchema) into an interactive Bubble Tea
// form and the form's state back into JSON arguments.
//
// Parse reads a schema into an ordered, $ref-resolved tree (properties keep the order the
// schema wrote them in); New builds a Model over it. The Model is a child component: the
// parent forwards messages to Update, sizes it with SetSize and draws View. When the user
// submits or escapes, the Model returns a command that yields SubmitMsg or CancelMsg.
//
// The arguments are checked against the schema (santhosh-tekuri/jsonschema) before they
// are sent; each problem is mapped to the field it belongs to by its JSON pointer. Sending
// arguments that do not match is allowed after a confirmation, because exercising a
// server's handling of bad input is part of inspecting it.
//
// Typing replaces or adds by one rule, visible before the first key: typing replaces only
// what the form filled in and nobody has touched, a schema default or an argument sent last
// time (Options.Remembered); it adds to the end of anything the user typed or that came
// from elsewhere (JSON, $EDITOR, a draft left unsent, a recorded request), even when that
// equals the default. Such a value is drawn dim and marked "(default)" or "(sent last)",
// the hint under the focused field says which rule applies, and while it is being edited it
// is drawn selected: typing (or pasting) replaces it, backspace deletes it, and a cursor
// key keeps it to edit; the footer says so while it applies. The JSON view closed unchanged
// leaves defaults defaults.
//
// An optional object is sent only once something in it is entered (typed, toggled, chosen,
// added, or read from JSON): the defaults inside it are drawn as defaults but do not create
// it, and its row says so ("unset"). A required object, once it is sent, holds its defaults.
//
// A field that takes text owns every printable key, from the first one typed in navigation:
// the actions on fields (new item or member ctrl+n, delete it ctrl+k, move item ctrl+↑/↓ or
// alt+↑/↓, null ctrl+g, clear ctrl+x, undo ctrl+z, multi-line ctrl+l) are ctrl keys, which
// cannot be text; f2 (rename a map member's key) is no text either. The keys that add,
// delete and move items and members work while a field is edited too: the edit is
// committed first. While a field is edited, ctrl+x clears the text being edited and ctrl+z
// takes back what was typed since the edit began (a default comes back selected); the help
// offers each while it applies. The problems shown follow each key, checked as if the text
// being edited were committed.
//
// An object whose schema takes members beyond its properties (additionalProperties a
// schema or true, or patternProperties) is a map the user fills in member by member: ctrl+n
// (or enter, or typing, on its row) adds a member and asks for its key in an object-key
// input, where every printable key is text too; enter goes on to the value, a field typed
// by additionalProperties (a string, a number, another object …). f2 renames a member's
// key, ctrl+k deletes the member. A key that is empty or already taken is a problem shown on
// the form, and that member is left out of the arguments until it is fixed, never merged.
// Members read from JSON (remembered arguments, the JSON view) are members too, not kept
// JSON.
//
// A JSON view (and $EDITOR) shows the same arguments as text. Both directions stay in sync:
// what the form cannot express (unknown properties, values of the wrong type) is kept as
// JSON and marked, never dropped. The JSON view opens with the cursor after the text;
// ctrl+a selects it all, so that typing or pasting replaces it.
// Sending from the JSON view sends its text as typed: the text is applied to the form
// first, as leaving the view applies it, so that the send-anyway question is asked over
// the form showing what goes; n returns to the JSON view with the text untouched.
//
// # Where things are
//
// Building: Parse (schema.go, objects in schema_object.go) reads the schema; the builder in field.go makes one field per
// node (newField, expand), defaults filled; filled.go tells what the form filled in from what was entered. Keys: Model.key (model.go) dispatches by mode,
// to keyNavigate, keyEdit and keyChoose; typeInto (typing.go) makes every printable key
// on a field that takes text text (field actions are ctrl keys, keys.go); undo.go takes
// back a clear, a delete or applied JSON; members.go adds, renames and deletes the members
// of maps. The form's keys are its own KeyMap (keys.go). Validation: validate.go and check.go. Completion suggestions:
// complete.go. Drawing: view.go; the JSON view: jsonview.go.
package form
