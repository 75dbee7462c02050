//go:build unix

package transport

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/secret"
)

// TestServerEnvHasNoCredential: a server mcpscope starts, directly or under the
// supervisor, inherits the environment but none of mcpscope's credential variables; an -e
// value is still given.
func TestServerEnvHasNoCredential(t *testing.T) {
	for _, k := range secret.CredentialEnv {
		t.Setenv(k, "cred-"+strings.ToLower(k)+"-12345")
	}
	t.Setenv("MCPSCOPE_TEST_KEEP", "kept")
	for _, start := range []struct {
		name string
		fn   func(ProcessSpec) (*Process, error)
	}{
		{"direct", startDirect},
		{"default", func(sp ProcessSpec) (*Process, error) { return StartProcess(t.Context(), sp) }},
	} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		p, err := start.fn(ProcessSpec{Command: "sh", Args: []string{"-c", "env"}, Env: []string{"GIVEN=yes"}, Stdout: w, Grace: 1e9})
		w.Close()
		if err != nil {
			t.Fatal(err)
		}
		out, _ := io.ReadAll(r)
		r.Close()
		p.Wait()
		<-p.Done()
		env := string(out)
		for _, k := range secret.CredentialEnv {
			if strings.Contains(env, k+"=") || strings.Contains(env, "cred-") {
				t.Errorf("%s: the server got %s:\n%s", start.name, k, env)
			}
		}
		if !strings.Contains(env, "MCPSCOPE_TEST_KEEP=kept") || !strings.Contains(env, "GIVEN=yes") {
			t.Errorf("%s: the server lost its environment:\n%s", start.name, env)
		}
	}
}
