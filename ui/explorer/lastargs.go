package explorer

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/secret"
)

// Remembered arguments: what a form last sent (a tool's arguments, a prompt's, a
// template's variables), per server, offered when the same form opens again. They are kept
// in a 0600 file in the user's state directory (Options.ArgsFile), one entry per server
// description (Options.Target, already masked) and form title ("tools/call NAME").
// Arguments may hold secrets: a top-level argument whose name looks secret (token,
// password, key …) or whose value the file masker would change (a secret the command line
// gave, a secret shape) is not kept at all, so the file never holds one and the form asks
// for it again. ctrl+r in the form forgets the entry and starts from the defaults.

// LastArgs is the remembered arguments of one server, in memory. The model changes it in
// Update; the file is read and written in commands.
type LastArgs struct {
	path   string // "" keeps them in memory only
	server string
	forms  map[string]json.RawMessage
}

// newLastArgs remembers the arguments of server, in path.
func newLastArgs(path, server string) *LastArgs {
	return &LastArgs{path: path, server: server, forms: map[string]json.RawMessage{}}
}

// lastArgsFile is the file's content: server → form title → arguments.
type lastArgsFile struct {
	Servers map[string]map[string]json.RawMessage `json:"servers"`
}

// lastArgsLoadedMsg carries the server's remembered arguments read from the file.
type lastArgsLoadedMsg struct {
	forms map[string]json.RawMessage
	err   error
}

// lastArgsSavedMsg reports a failed write of the file (nil: nothing to say).
type lastArgsSavedMsg struct{ err error }

func (lastArgsLoadedMsg) explorerMsg() {}
func (lastArgsSavedMsg) explorerMsg()  {}

// lastArgsMu orders this process's read-modify-writes of the file.
var lastArgsMu sync.Mutex

// loadCmd reads the server's entries from the file.
func (l *LastArgs) loadCmd() tea.Cmd {
	if l == nil || l.path == "" {
		return nil
	}
	path, server := l.path, l.server
	return func() tea.Msg {
		lastArgsMu.Lock()
		defer lastArgsMu.Unlock()
		f, err := readLastArgs(path)
		return lastArgsLoadedMsg{forms: f.Servers[server], err: err}
	}
}

// loaded takes in what loadCmd read; what a form sent since stays.
func (l *LastArgs) loaded(msg lastArgsLoadedMsg) tea.Cmd {
	for k, v := range msg.forms {
		if _, ok := l.forms[k]; !ok {
			l.forms[k] = v
		}
	}
	if msg.err != nil {
		return statusCmd("remembered arguments: "+msg.err.Error(), true)
	}
	return nil
}

// get is the arguments form title last sent, or nil.
func (l *LastArgs) get(title string) json.RawMessage {
	if l == nil {
		return nil
	}
	return l.forms[title]
}

// remember keeps args as form title's last arguments (nil forgets them), with the
// arguments mask would change left out, and writes the file in a command.
func (l *LastArgs) remember(title string, args json.RawMessage, mask *secret.Masker) tea.Cmd {
	if l == nil {
		return nil
	}
	if args != nil {
		args = keepable(args, mask)
		l.forms[title] = args
	} else {
		delete(l.forms, title)
	}
	if l.path == "" {
		return nil
	}
	path, server := l.path, l.server
	return func() tea.Msg {
		lastArgsMu.Lock()
		defer lastArgsMu.Unlock()
		return lastArgsSavedMsg{writeLastArgs(path, server, title, args)}
	}
}

// keepable is args without the top-level members that look secret: a secret name, or a
// value mask changes. mask masks even with --no-redact: the file is never a place for them.
func keepable(args json.RawMessage, mask *secret.Masker) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal(args, &obj) != nil {
		return nil
	}
	for k, v := range obj {
		if secret.IsSecretName(k) || !bytes.Equal(mask.Bytes(v), v) {
			delete(obj, k)
		}
	}
	out, _ := protocol.Marshal(obj) // raw members: cannot fail
	return out
}

// readLastArgs reads the file; a missing file is empty.
func readLastArgs(path string) (lastArgsFile, error) {
	var f lastArgsFile
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return lastArgsFile{}, errors.New(path + " is not what mcpscope wrote (" + err.Error() + "): it will be replaced")
	}
	return f, nil
}

// writeLastArgs sets (nil: deletes) one entry of the file and writes it whole, 0600,
// through a temporary file renamed over it.
func writeLastArgs(path, server, title string, args json.RawMessage) error {
	f, _ := readLastArgs(path) // an unreadable file is replaced
	if f.Servers == nil {
		f.Servers = map[string]map[string]json.RawMessage{}
	}
	forms := f.Servers[server]
	if forms == nil {
		forms = map[string]json.RawMessage{}
	}
	if args == nil {
		delete(forms, title)
	} else {
		forms[title] = args
	}
	if len(forms) == 0 {
		delete(f.Servers, server)
	} else {
		f.Servers[server] = forms
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".form-args-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(append(b, '\n'))
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp.Name(), 0o600)
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
	}
	return werr
}
