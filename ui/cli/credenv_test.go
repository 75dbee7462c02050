package cli

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/secret"
)

// TestCredentialEnvListed: every MCPSCOPE_ variable that carries a credential (a flag's
// env of a secret, a bearer or a token, and serve's token) is one the servers never
// inherit and every masker knows.
func TestCredentialEnvListed(t *testing.T) {
	want := []string{"MCPSCOPE_SERVE_TOKEN"} // read by serve itself, not through a flag
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(tp reflect.Type) {
		for tp.Kind() == reflect.Pointer || tp.Kind() == reflect.Slice {
			tp = tp.Elem()
		}
		if tp.Kind() != reflect.Struct || seen[tp] {
			return
		}
		seen[tp] = true
		for f := range tp.Fields() {
			env := f.Tag.Get("env")
			lower := strings.ToLower(f.Name + " " + f.Tag.Get("placeholder"))
			if strings.HasPrefix(env, "MCPSCOPE_") && (strings.Contains(lower, "secret") || strings.Contains(lower, "bearer") || secret.SecretName(f.Name)) {
				want = append(want, env)
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeFor[CLI]())
	if len(want) < 4 {
		t.Fatalf("found only %v: the walk misses the flags", want)
	}
	for _, k := range want {
		if !slices.Contains(secret.CredentialEnv, k) {
			t.Errorf("%s carries a credential and is not in secret.CredentialEnv", k)
		}
	}
}
