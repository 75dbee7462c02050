package cli

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui"
)

// longOf is the long name of each short server selection flag.
var longOf = map[string]string{"-e": "--env", "-H": "--header"}

// serverArgs is the server selection of this command line as the headless commands take
// it, for the view's "copy as command": the flags that choose and reach the server and
// shape the session, given as they were (the view masks secrets unless --no-redact), and
// the command after "--".
func (f *ServerFlags) serverArgs(command []string, sp session.ServerSpec) ui.ServerArgs {
	var w []string
	add := func(flag, v string) {
		switch {
		case v == "":
		case strings.HasPrefix(v, "-"):
			// A value that looks like a flag (a token may start with "-") is joined to its
			// flag's long name, as the parser would otherwise take it for a flag.
			w = append(w, cmp.Or(longOf[flag], flag)+"="+v)
		default:
			w = append(w, flag, v)
		}
	}
	add("--config", f.Config)
	add("--server", f.Server)
	add("--url", f.URL)
	add("--transport", f.Transport)
	for _, e := range f.Env {
		add("-e", e)
	}
	add("--cwd", f.Cwd)
	for _, h := range f.Header {
		add("-H", h)
	}
	add("--bearer", f.Bearer)
	add("--client-id", f.ClientID)
	add("--client-metadata-url", f.ClientMetadataURL)
	add("--scope", f.Scope)
	if f.Protocol != "auto" {
		add("--protocol", f.Protocol)
	}
	if f.Timeout != 60*time.Second {
		add("--timeout", f.Timeout.String())
	}
	for _, r := range f.Roots {
		add("--root", r)
	}
	for _, b := range []struct {
		flag string
		on   bool
	}{{"--no-roots", f.NoRoots}, {"--no-sampling", f.NoSampling}, {"--tasks", f.Tasks}, {"--no-apps", f.NoApps}, {"--no-listen", f.NoListen}} {
		if b.on {
			w = append(w, b.flag)
		}
	}
	if f.Elicitation != "form,url" {
		add("--elicitation", f.Elicitation)
	}
	// curl gets the headers and token of the spec, which a --config entry may give too.
	a := ui.ServerArgs{Flags: w, Command: command, Bearer: sp.Bearer}
	for _, name := range slices.Sorted(maps.Keys(sp.Headers)) {
		for _, v := range sp.Headers[name] {
			a.Headers = append(a.Headers, name+": "+v)
		}
	}
	if strings.HasPrefix(sp.URL, "http://") || strings.HasPrefix(sp.URL, "https://") {
		a.URL = sp.URL
	}
	return a
}
