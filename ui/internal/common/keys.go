package common

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"

	"github.com/mcpscope/mcpscope/ui/form"
)

// KeyMap is every binding of the program. Help, the help line and README's key table are all
// generated from it; bindings that do not apply in the current state are disabled so help
// never lies.
type KeyMap struct {
	// Global.
	Quit, Help, NextPane, PrevPane, Filter, Traffic, Explorer, Server, Tasks, Servers, Stats, Auth, Restart, SaveSession key.Binding
	// Moving around.
	Up, Down, PageUp, PageDown, Top, Bottom, Open, Back key.Binding
	// Timeline.
	Pair, Follow, ToggleStderr, ToggleTransport, ToggleHTTP key.Binding
	// Detail.
	Raw, Original, Swap, Maximize, Pager, Editor, Save, Copy key.Binding
	// Explorer.
	PrevTab, NextTab, Call, Zoom, ShowCall, SaveMedia, FollowLink, Subscribe, ForgetArgs, AppJump, RunApp key.Binding
	// Tasks page.
	TaskCancel, TaskAnswer, TaskList key.Binding
	// Servers page (the server picker).
	Connect, Disconnect key.Binding
	// Stats page.
	StatsSort, StatsShow key.Binding
	// Server page.
	Era key.Binding
	// Auth page and the dialog while the browser is awaited.
	AuthLogin, AuthRefresh, AuthLogout, AuthCopyURL, AuthCancel key.Binding
	// Dialogs.
	Yes, No key.Binding
	// Acting on the server: cancel, re-send, compose, log level, roots, answering the server.
	Act ActKeys
	// Breakpoints and held messages (keys_break.go).
	Break BreakKeys

	// reasons says why each binding turned off with Disable is off, by its address.
	reasons map[*key.Binding]string
}

// DefaultKeyMap is mcpscope's keymap.
func DefaultKeyMap() *KeyMap {
	b := func(help string, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return &KeyMap{
		Quit:     b("q", "quit", "q", "ctrl+c"),
		Help:     b("?", "help", "?"),
		NextPane: b("tab", "next pane", "tab"),
		PrevPane: b("shift+tab", "previous pane", "shift+tab"),
		Filter:   b("/", "filter", "/"),
		Traffic:  b("1", "traffic", "1"),
		Explorer: b("2", "explorer", "2"),
		Server:   b("3", "server", "3"),
		Tasks:    b("4", "tasks", "4"),
		Servers:  b("5", "servers (picker)", "5"),
		Stats:    b("6", "stats", "6"),
		Auth:     b("7", "auth", "7"),
		Restart:  b("R", "restart server", "R"),

		SaveSession: b("ctrl+w", "save session…", "ctrl+w"),

		Up:       b("↑/k", "up", "up", "k"),
		Down:     b("↓/j", "down", "down", "j"),
		PageUp:   b("pgup", "page up", "pgup", "ctrl+u", "ctrl+b"),
		PageDown: b("pgdn", "page down", "pgdown", "ctrl+d", "ctrl+f"),
		Top:      b("g/home", "top", "g", "home"),
		Bottom:   b("G/end", "bottom (follow)", "G", "end"),
		Open:     b("enter", "open", "enter"),
		Back:     b("esc", "back", "esc"),

		Pair:            b("p", "jump to pair", "p"),
		Follow:          b("f", "follow", "f"),
		ToggleStderr:    b("s", "stderr rows", "s"),
		ToggleTransport: b("t", "transport rows", "t"),
		ToggleHTTP:      b("x", "HTTP rows", "x"),

		Raw:      b("w", "wire bytes / pretty", "w"),
		Original: b("d", "edited: delivered / original", "d"),
		Swap:     b("v", "both / request / response", "v"),
		Maximize: b("z", "maximise / restore the detail", "z"),
		Pager:    b("o", "open in $PAGER", "o"),
		Editor:   b("e", "open in $EDITOR", "e"),
		Save:     b("ctrl+s", "save to file", "ctrl+s"),
		Copy:     b("y", "copy", "y"),

		PrevTab: b("←/h", "previous list", "left", "h"),
		NextTab: b("→/l", "next list", "right", "l"),

		Call:       b("enter", "call tool · get prompt · read resource", "enter"),
		Zoom:       b("z", "full detail", "z"),
		ShowCall:   b("T", "show the call in the timeline", "T"),
		SaveMedia:  b("b", "save image / audio / blob", "b"),
		FollowLink: b("F", "follow resource link", "F"),
		Subscribe:  b("S", "subscribe / unsubscribe resource", "S"),
		ForgetArgs: b("ctrl+r", "form: reset to the defaults (forget draft/last args)", "ctrl+r"),
		AppJump:    b("U", "MCP Apps: tool ↔ its ui:// resource", "U"),
		RunApp:     b("A", "run the tool's MCP App in the browser (after its form)", "A"),

		TaskCancel: b("c", "cancel task (tasks/cancel)", "c"),
		TaskAnswer: b("a", "follow again · answer its input", "a"),
		TaskList:   b("r", "list the server's tasks (tasks/list)", "r"),

		Connect:    b("enter", "connect", "enter"),
		Disconnect: b("d", "disconnect", "d"),

		StatsSort: b("s", "sort", "s"),
		StatsShow: b("enter", "show in timeline", "enter"),
		Era:       b("P", "restart in the other protocol era", "P"),

		AuthLogin:   b("l", "log in again", "l"),
		AuthRefresh: b("r", "refresh the token now", "r"),
		AuthLogout:  b("X", "log out (forget the tokens)", "X"),
		AuthCopyURL: b("y", "copy the authorization URL", "y"),
		AuthCancel:  b("esc", "stop waiting for the browser", "esc"),

		Yes: b("y", "yes", "y", "Y"),
		No:  b("n", "no", "n", "N", "esc"),

		Act:   DefaultActKeys(),
		Break: DefaultBreakKeys(),
	}
}

// Group is a titled set of bindings, for the full help and README.
type Group struct {
	Title    string
	Bindings []key.Binding
}

// Groups lists every binding by topic.
func (k *KeyMap) Groups() []Group {
	return append([]Group{
		{"Global", []key.Binding{k.Help, k.Quit, k.NextPane, k.PrevPane, k.Filter, k.Traffic, k.Explorer, k.Server, k.Tasks, k.Restart, k.SaveSession}},
		{"Move", []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Open, k.Back}},
		{"Timeline", []key.Binding{k.Pair, k.Follow, k.ToggleStderr, k.ToggleTransport, k.ToggleHTTP}},
		{"Detail", []key.Binding{k.Raw, k.Original, k.Swap, k.Maximize, k.Pager, k.Editor, k.Save, k.Copy}},
		{"Explorer", []key.Binding{k.PrevTab, k.NextTab, k.Call, k.Zoom, k.ShowCall, k.SaveMedia, k.FollowLink, k.Subscribe, k.ForgetArgs, k.AppJump, k.RunApp}},
		{"Tasks", []key.Binding{k.Open, k.TaskCancel, k.TaskAnswer, k.TaskList}},
		{"Server", []key.Binding{k.Era}},
		{"Servers", []key.Binding{k.Servers, k.Connect, k.Disconnect}},
		{"Stats", []key.Binding{k.Stats, k.StatsSort, k.StatsShow}},
		{"Auth", []key.Binding{k.Auth, k.AuthLogin, k.AuthRefresh, k.AuthLogout, k.AuthCopyURL, k.AuthCancel}},
	}, append(k.Act.groups(), k.Break.groups()...)...)
}

// MarkdownTable renders the keymap as README's key table, the form's own keys (package
// form, where a field that takes text owns every printable key) last.
func (k *KeyMap) MarkdownTable() string {
	var b strings.Builder
	b.WriteString("| where | key | action |\n|---|---|---|\n")
	row := func(where string, kb key.Binding) {
		keys := make([]string, len(kb.Keys()))
		for i, s := range kb.Keys() {
			keys[i] = "`" + s + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", where, strings.Join(keys, " "), kb.Help().Desc)
	}
	for _, g := range k.Groups() {
		for _, kb := range g.Bindings {
			row(g.Title, kb)
		}
	}
	for _, bindings := range form.DefaultKeyMap().FullHelp() {
		for _, kb := range bindings {
			row("Form", kb)
		}
	}
	return b.String()
}
