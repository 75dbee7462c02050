package apphost

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// OpenBrowser opens url with $BROWSER (a command; %s in it is replaced by the URL, else
// the URL is its last argument), else xdg-open, or open on macOS. It does not wait for
// the browser.
func OpenBrowser(url string) error {
	var cmd *exec.Cmd
	switch b := os.Getenv("BROWSER"); {
	case b != "":
		words := strings.Fields(b)
		if strings.Contains(b, "%s") {
			for i, w := range words {
				words[i] = strings.ReplaceAll(w, "%s", url)
			}
		} else {
			words = append(words, url)
		}
		cmd = exec.Command(words[0], words[1:]...)
	case runtime.GOOS == "darwin":
		cmd = exec.Command("open", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }() // reaps the opener; a browser it starts lives on
	return nil
}
