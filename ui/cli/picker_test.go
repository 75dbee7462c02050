package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServerListCredentials: with --config FILE --server a and the command line's
// credentials (-e, -H, --bearer), server a starts as the command line gave it, and a
// picked server b gets the session flags but none of those credentials.
func TestServerListCredentials(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	text := `{"mcpServers":{"a":{"url":"http://127.0.0.1:1/a"},"b":{"url":"http://127.0.0.1:1/b","headers":{"X-Own":"b-own"}},"c":{"command":"c-cmd","env":{"C_KEY":"c-value"}}}}`
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	f := &ServerFlags{Config: path, Server: "a", Bearer: "tok-from-command-line", Header: []string{"X-Api-Key: key-from-command-line"},
		Env: []string{"CMD_SECRET=env-from-command-line"}, MaxFrame: 1234, MaxRedirects: 3}
	list, first, err := f.serverList(nil)
	if err != nil {
		t.Fatal(err)
	}
	if first == nil || first.URL != "http://127.0.0.1:1/a" || first.Bearer != "tok-from-command-line" || list.Current != 0 || len(list.Servers) != 3 {
		t.Fatalf("first %+v, current %d of %d", first, list.Current, len(list.Servers))
	}
	a, err := f.pickedSpec(list.Servers[0], first, list)
	if err != nil || a.Bearer != "tok-from-command-line" || a.Headers.Get("X-Api-Key") != "key-from-command-line" {
		t.Errorf("server a picked again is not as the command line gave it: %+v (%v)", a, err)
	}
	b, err := f.pickedSpec(list.Servers[1], first, list)
	if err != nil {
		t.Fatal(err)
	}
	if b.Bearer != "" || b.Headers.Get("X-Api-Key") != "" || b.Headers.Get("X-Own") != "b-own" || len(b.Env) != 0 {
		t.Errorf("server b got the command line's credentials, or lost its own: %+v", b)
	}
	if b.MaxLine != 1234 || b.MaxRedirects != 3 {
		t.Errorf("server b lacks the session flags: max frame %d, redirects %d", b.MaxLine, b.MaxRedirects)
	}
	c, err := f.pickedSpec(list.Servers[2], first, list)
	if err != nil || strings.Join(c.Env, ",") != "C_KEY=c-value" {
		t.Errorf("server c's environment: %v (%v)", c.Env, err)
	}
	args := strings.Join(f.pickedArgs(nil, list.Servers[1], first, list).Flags, " ")
	if !strings.Contains(args, "--config "+path+" --server b") || strings.Contains(args, "command-line") {
		t.Errorf("copy as command for server b: %q", args)
	}
	if args := strings.Join(f.pickedArgs(nil, list.Servers[0], first, list).Flags, " "); !strings.Contains(args, "--bearer tok-from-command-line") {
		t.Errorf("copy as command for server a, as the command line gave it: %q", args)
	}
	secrets := strings.Join(pickerSecrets(list), " ")
	if !strings.Contains(secrets, "c-value") {
		t.Errorf("server c's environment value is not masked: %q", secrets)
	}

	// Without --server, several servers: the view starts on the picker.
	f.Server = ""
	list, first, err = f.serverList(nil)
	if err != nil || first != nil || list.Current != -1 {
		t.Errorf("several servers and no --server: first %v, current %d, err %v", first, list.Current, err)
	}
}
