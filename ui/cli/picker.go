package cli

import (
	"os"
	"path/filepath"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui"
)

// serverList is what the interactive view's server picker offers: with --config, that
// file's servers; otherwise the server of the command line first, then the servers of the
// hosts' config files found in their usual places. first is the server the view starts
// on (nil: it starts on the picker, connected to none, as for --config FILE with several
// servers and no --server).
func (f *ServerFlags) serverList(command []string) (list *ui.ServerList, first *session.ServerSpec, err error) {
	home, _ := os.UserHomeDir()
	cwd, _ := os.Getwd()
	list = &ui.ServerList{Current: -1, Home: home}
	if f.Config != "" {
		abs, aerr := filepath.Abs(f.Config)
		if aerr != nil {
			abs = f.Config
		}
		list.Looked = []session.ConfigSource{{Host: "--config", Path: abs}}
	} else {
		list.Looked = session.DefaultHostPlaces()
	}
	found, errs := session.ListServers(list.Looked, cwd)
	list.Errs = errs
	if len(f.cardPick) > 0 {
		// A bare --url host whose card names several remotes: the view starts on the
		// picker, the card's remotes first.
		list.Servers = append(append([]session.ConfiguredServer(nil), f.cardPick...), found...)
		return list, nil, nil
	}
	if f.Config != "" {
		if err := errs[list.Looked[0].Path]; err != nil {
			return nil, nil, usageError{err}
		}
		list.Servers = found
		if f.Server == "" && len(found) != 1 && len(command) == 0 && f.URL == "" {
			return list, nil, nil // several: the user picks one
		}
	}
	sp, err := f.spec(command)
	if err != nil {
		return nil, nil, err
	}
	if f.Config != "" && len(command) == 0 && f.URL == "" {
		for i, cs := range found {
			if cs.Name == sp.Name {
				list.Current = i
			}
		}
		return list, &sp, nil
	}
	name := sp.Name
	if name == "" {
		name = "command line"
	}
	here := session.ConfiguredServer{Source: session.ConfigSource{Host: "command line"}, Name: name, Spec: sp}
	list.Servers, list.Current = append([]session.ConfiguredServer{here}, found...), 0
	return list, &sp, nil
}

// pickedSpec is a configured server's selection with the flags that are not credentials:
// the command line's -e, -H, --bearer and client credentials belong to its own server and
// are never sent to another.
func (f *ServerFlags) pickedSpec(cs session.ConfiguredServer, first *session.ServerSpec, list *ui.ServerList) (session.ServerSpec, error) {
	if isFirst(cs, first, list) {
		return *first, nil // the server the view started on, as the command line gave it
	}
	sp := cs.Spec
	sp.MaxLine, sp.Grace, sp.MaxRedirects = f.MaxFrame, f.Grace, f.MaxRedirects
	if f.MaxRedirects <= 0 {
		sp.MaxRedirects = -1
	}
	a := AuthFlags{NoAuthPrompt: f.NoAuthPrompt, NoBrowser: f.NoBrowser, CallbackPort: f.CallbackPort}
	if err := a.apply(&sp); err != nil {
		return sp, err
	}
	if sp.Auth != nil {
		sp.Auth.Out, sp.Auth.In, sp.Auth.Unattended = nil, nil, false // the view owns the terminal, and a person is at it
	}
	return sp, sp.Validate()
}

// pickerSecrets are the secrets of every listed server (their -e values, secret headers),
// masked in the recording and on the screen like the command line's.
func pickerSecrets(list *ui.ServerList) []string {
	var out []string
	for _, cs := range list.Servers {
		out = append(out, specSecrets(cs.Spec)...)
	}
	return out
}

// pickedArgs is how the headless commands select a configured server, for the view's copy
// as command: the command line's own selection for the server the view started on, else
// --config FILE --server NAME with the session flags but none of the command line's
// credentials (as pickedSpec).
func (f *ServerFlags) pickedArgs(command []string, cs session.ConfiguredServer, first *session.ServerSpec, list *ui.ServerList) ui.ServerArgs {
	if first != nil && (isFirst(cs, first, list) || cs.Source.Path == "") {
		return f.serverArgs(command, *first)
	}
	sp, err := f.pickedSpec(cs, first, list)
	if err != nil {
		sp = cs.Spec
	}
	g := *f
	g.Config, g.Server = cs.Source.Path, cs.Name
	g.URL, g.Transport, g.Env, g.Cwd, g.Header, g.Bearer = "", "", nil, "", nil, ""
	g.ClientID, g.ClientMetadataURL, g.Scope = "", "", ""
	return g.serverArgs(nil, sp)
}

// isFirst reports whether cs is the server the view started on (first, as the command
// line selected it).
func isFirst(cs session.ConfiguredServer, first *session.ServerSpec, list *ui.ServerList) bool {
	i := list.Current
	return first != nil && i >= 0 && i < len(list.Servers) && list.Servers[i].Name == cs.Name && list.Servers[i].Source == cs.Source
}
