package cli_test

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestSecretMemberMaskedEverywhere: a secret JSON member ("AWS_SECRET_ACCESS_KEY": "…"),
// here inside a tool argument that is itself JSON text, is masked in --trace, in HAR and
// in NDJSON (made from a recording that keeps it, --no-redact).
func TestSecretMemberMaskedEverywhere(t *testing.T) {
	const sec = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz41"
	rec := recordDemo(t, "member", "--no-redact", "call", "echo", `text={"AWS_SECRET_ACCESS_KEY": "`+sec+`", "region": "eu"}`)
	if b, _ := os.ReadFile(rec); !bytes.Contains(b, []byte(sec)) {
		t.Fatal("the --no-redact recording does not hold the secret; the checks would prove nothing")
	}
	_, stderr, _ := run(t, "--trace", "call", "echo", `text={"AWS_SECRET_ACCESS_KEY": "`+sec+`", "region": "eu"}`)
	outs := map[string]string{"--trace": stderr, "har": string(exportOut(t, "har", rec)), "ndjson": string(exportOut(t, "ndjson", rec))}
	for name, out := range outs {
		if strings.Contains(out, sec) || strings.Contains(out, sec[:12]) {
			t.Errorf("%s shows the secret:\n%.3000s", name, out)
		}
		if !strings.Contains(out, "AWS_SECRET_ACCESS_KEY") || !strings.Contains(out, "region") {
			t.Errorf("%s lost the member around the secret:\n%.3000s", name, out)
		}
	}
}
