package browser

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
	"unicode"
)

// MaxURLBytes bounds an address Open hands to a browser.
const MaxURLBytes = 32 << 10

// ErrRefused is wrapped by the error of an address Check refuses.
var ErrRefused = errors.New("not an http(s) URL mcpscope opens")

// Check says why u may not be opened; nil when it may: an absolute http or https URL that
// parses, names a host, and holds no control, space or formatting character.
func Check(u string) error {
	refuse := func(why string) error { return fmt.Errorf("%w: %s", ErrRefused, why) }
	if len(u) > MaxURLBytes {
		return refuse(fmt.Sprintf("%d bytes, over the %d KiB bound", len(u), MaxURLBytes>>10))
	}
	if i := strings.IndexFunc(u, badRune); i >= 0 {
		return refuse(fmt.Sprintf("it holds %U at byte %d", []rune(u[i:])[0], i))
	}
	lower := strings.ToLower(u)
	if !strings.HasPrefix(lower, "http://") && !strings.HasPrefix(lower, "https://") {
		return refuse("it does not start with http:// or https://")
	}
	p, err := url.Parse(u)
	if err != nil {
		return refuse("it does not parse: " + err.Error())
	}
	if p.Hostname() == "" {
		return refuse("it names no host")
	}
	return nil
}

// badRune: a control character (C0, DEL, C1), a space of any kind, a formatting character
// (bidi controls, zero-width), or an invalid encoding.
func badRune(r rune) bool {
	return r == unicode.ReplacementChar || unicode.IsControl(r) || unicode.IsSpace(r) || unicode.Is(unicode.Cf, r)
}

// Open opens u in the user's browser after Check; a refused u reaches no program.
func Open(u string) error {
	if err := Check(u); err != nil {
		return err
	}
	if env := os.Getenv("BROWSER"); env != "" {
		last := errors.New("$BROWSER names no command")
		for _, c := range strings.Split(env, ":") {
			if c = strings.TrimSpace(c); c == "" {
				continue
			}
			if last = run(Command(c, u)); last == nil {
				return nil
			}
		}
		return last
	}
	switch runtime.GOOS {
	case "darwin":
		return run([]string{"open", u})
	case "windows":
		return run([]string{"rundll32", "url.dll,FileProtocolHandler", u})
	}
	return run([]string{"xdg-open", u})
}

// Command is the argv of one $BROWSER command for u: its words, %s in a word replaced by u,
// else u appended. u stays one argument whatever the command.
func Command(command, u string) []string {
	args := strings.Fields(command)
	replaced := false
	for i, a := range args {
		if strings.Contains(a, "%s") {
			args[i], replaced = strings.ReplaceAll(a, "%s", u), true
		}
	}
	if !replaced {
		args = append(args, u)
	}
	return args
}

// startWait is how long run waits for a command to fail before leaving it to run.
const startWait = 2 * time.Second

// run starts argv; it is waited for briefly so a command that fails at once counts as
// failed, and otherwise left running (a browser it starts lives on).
func run(argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("%s: %w", filepath.Base(argv[0]), err)
		}
		return nil
	case <-time.After(startWait):
		return nil
	}
}
