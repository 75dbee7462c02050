package cli_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpscope/mcpscope/ui/cli"
)

// validateSARIF fails the test unless out is valid SARIF 2.1.0 (the OASIS schema, shipped
// in testdata), and makes sure the schema rejects a level it does not know.
func validateSARIF(t *testing.T, out string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "sarif", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	const id = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	if err := c.AddResource(id, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(id)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("not valid SARIF 2.1.0: %v", err)
	}
	broken, _ := jsonschema.UnmarshalJSON(strings.NewReader(strings.Replace(out, `"level": "error"`, `"level": "fatal"`, 1)))
	if sch.Validate(broken) == nil {
		t.Fatal("the schema accepts a level fatal: it validates nothing")
	}
}

// TestCheckUncheckedReports: check of a server that does not start still writes a
// well-formed report in each machine format, holding the failure (a JUnit failure of type
// not-checked, a SARIF error notification of an unsuccessful invocation, the JSON error),
// and exits as before: code 3 with the error on stderr.
func TestCheckUncheckedReports(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nonexistent-srv")
	const want = "fork/exec"
	for _, format := range []string{"junit", "sarif", "json"} {
		out, stderr, code := run(t, "check", "--format", format, "--", missing)
		if code != cli.ExitConnect || !strings.Contains(stderr, "mcpscope: connect: start "+missing) {
			t.Errorf("--format %s: exit %d (want %d), stderr %q", format, code, cli.ExitConnect, stderr)
		}
		switch format {
		case "junit":
			var got struct {
				Tests    int `xml:"tests,attr"`
				Failures int `xml:"failures,attr"`
				Suites   []struct {
					Name  string `xml:"name,attr"`
					Cases []struct {
						Name    string `xml:"name,attr"`
						Failure *struct {
							Type    string `xml:"type,attr"`
							Message string `xml:"message,attr"`
						} `xml:"failure"`
					} `xml:"testcase"`
				} `xml:"testsuite"`
			}
			if err := xml.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("junit: %v\n%q", err, out)
			}
			if got.Tests != 1 || got.Failures != 1 || len(got.Suites) != 1 || got.Suites[0].Name != "nonexistent-srv" ||
				len(got.Suites[0].Cases) != 1 {
				t.Fatalf("junit: %+v\n%s", got, out)
			}
			c := got.Suites[0].Cases[0]
			if c.Name != "connect" || c.Failure == nil || c.Failure.Type != "not-checked" || !strings.Contains(c.Failure.Message, want) {
				t.Errorf("junit case %+v", c)
			}
		case "sarif":
			validateSARIF(t, out)
			var log struct {
				Runs []struct {
					Invocations []struct {
						ExecutionSuccessful        *bool
						ToolExecutionNotifications []struct {
							Level   string
							Message struct{ Text string }
						}
					}
					Results []json.RawMessage
				}
			}
			if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Invocations) != 1 {
				t.Fatalf("sarif: %v\n%s", err, out)
			}
			inv := log.Runs[0].Invocations[0]
			if inv.ExecutionSuccessful == nil || *inv.ExecutionSuccessful || len(inv.ToolExecutionNotifications) != 1 ||
				inv.ToolExecutionNotifications[0].Level != "error" ||
				!strings.HasPrefix(inv.ToolExecutionNotifications[0].Message.Text, "nonexistent-srv: connect: ") ||
				!strings.Contains(inv.ToolExecutionNotifications[0].Message.Text, want) || len(log.Runs[0].Results) != 0 {
				t.Errorf("sarif invocation %+v, %d results", inv, len(log.Runs[0].Results))
			}
		case "json":
			var got struct {
				Name  string
				Runs  []json.RawMessage
				Error string
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("json: %v\n%q", err, out)
			}
			if got.Name != "nonexistent-srv" || got.Runs == nil || len(got.Runs) != 0 ||
				!strings.HasPrefix(got.Error, "connect: start ") || !strings.Contains(got.Error, want) {
				t.Errorf("json %+v", got)
			}
		}
	}
	// The text report is unchanged: nothing on stdout, the error on stderr.
	if out, _, code := run(t, "check", "--", missing); out != "" || code != cli.ExitConnect {
		t.Errorf("text: exit %d, stdout %q", code, out)
	}
}
