package browser_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/browser"
)

// Addresses a server or an app may ask mcpscope to open that must reach no program.
var refused = []string{
	"",
	"-",
	"--new-window",
	"--user-data-dir=/tmp/x",
	"-e open -a Calculator",
	"file:///etc/passwd",
	"javascript:alert(document.cookie)",
	"JavaScript:alert(1)",
	"data:text/html,<script>alert(1)</script>",
	"vbscript:msgbox",
	"ftp://example.com/",
	"mailto:a@example.com",
	"http:example.com",
	"http:/example.com",
	"http://",
	"https:///path",
	"//example.com/",
	" https://example.com/",
	"https://example.com/ --incognito",
	"https://example.com/\n--new-window",
	"https://example.com/\x00",
	"https://example.com/\x1b]8;;x\x07",
	"https://example.com/\u0085",
	"https://example.com/\u202egpj.exe",
	"https://exa\u200bmple.com/",
	"https://example.com/\xff",
	"https://example.com/%zz",
	"https://" + strings.Repeat("a", browser.MaxURLBytes) + ".com/",
}

var accepted = []string{
	"https://example.com/",
	"http://127.0.0.1:8080/cb?code=1&state=2",
	"HTTPS://Example.COM/a/b?c=d#e",
	"https://bücher.example/ü",
	"https://example.com/-rf",
}

func TestCheck(t *testing.T) {
	for _, u := range refused {
		if err := browser.Check(u); !errors.Is(err, browser.ErrRefused) {
			t.Errorf("Check(%q) = %v, want ErrRefused", u, err)
		}
	}
	for _, u := range accepted {
		if err := browser.Check(u); err != nil {
			t.Errorf("Check(%q) = %v, want nil", u, err)
		}
	}
}
