package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/recordings/export"
)

// TestExportFaults: a recording of a session with fault rules keeps each fault; HAR lists
// them (_faults) and marks the entry of the call a rule answered (_fault); OTLP puts a
// mcpscope.fault event on the call's span and marks the answer mcpscope made.
func TestExportFaults(t *testing.T) {
	rec := recordDemo(t, "faults", "call", "echo", "text=hi", "--quiet", "--fault", `error=-32603:"echo is down" tool:=echo`)

	var har export.HAR
	if err := json.Unmarshal(exportOut(t, "har", rec), &har); err != nil {
		t.Fatal(err)
	}
	if len(har.Log.Faults) != 1 || !strings.HasPrefix(har.Log.Faults[0].Fault, "error: answered by mcpscope (rule 1") ||
		!strings.Contains(har.Log.Faults[0].Detail, `"name":"echo"`) {
		t.Errorf("HAR _faults: %+v", har.Log.Faults)
	}
	var marked []string
	for _, en := range har.Log.Entries {
		if en.Fault != "" {
			marked = append(marked, en.Request.URL+": "+en.Fault)
		}
	}
	if len(marked) != 1 || !strings.Contains(marked[0], "tools/call") || !strings.Contains(marked[0], "made by mcpscope") ||
		!strings.Contains(marked[0], "rule 1") {
		t.Errorf("HAR entries marked: %q", marked)
	}

	call := spanNamed(t, allSpans(decodeOTLPJSON(t, exportOut(t, "otlp", rec))), "tools/call echo")
	var events []string
	for _, ev := range call.Events {
		if ev.Name == "mcpscope.fault" {
			events = append(events, ev.Attributes[0].Value.GetStringValue())
		}
	}
	made := false
	for _, a := range call.Attributes {
		made = made || a.Key == "mcpscope.fault.made_by_mcpscope" && a.Value.GetBoolValue()
	}
	if len(events) != 1 || !strings.HasPrefix(events[0], "error: answered by mcpscope (rule 1") || !made {
		t.Errorf("OTLP: the call's fault events %q, made_by_mcpscope %v", events, made)
	}
}

// TestTraceFaults: --trace writes the fault's note and the answer mcpscope made, marked.
func TestTraceFaults(t *testing.T) {
	_, stderr, _ := run(t, "call", "echo", "text=hi", "--trace", "--fault", "error=-32000 tool:=echo")
	var note, answer bool
	for _, line := range strings.Split(stderr, "\n") {
		var ev struct {
			Kind, Note, Text, Via, Frame string
		}
		if json.Unmarshal([]byte(line), &ev) != nil {
			continue
		}
		note = note || ev.Kind == "transport" && ev.Note == "fault" && strings.HasPrefix(ev.Text, "error: answered by mcpscope (rule 1: error=-32000 tool:=echo)\noriginal (out): ")
		answer = answer || ev.Kind == "frame" && ev.Frame == "error" && ev.Via == "mcpscope"
	}
	if !note || !answer {
		t.Errorf("--trace: fault note %v, answer via mcpscope %v\n%s", note, answer, stderr)
	}
}

// TestReplayFaults: replay with a fault rule sends the recording's requests through it:
// the call the rule answers differs from the recorded answer by exactly that error.
func TestReplayFaults(t *testing.T) {
	rec := recordDemo(t, "plain", "call", "echo", "text=hi", "--quiet")
	stdout, stderr, _ := run(t, "replay", rec, "--quiet", "--fault", "error=-32603 tool:=echo")
	if !strings.Contains(stdout, "tools/call echo  different") || !strings.Contains(stdout, `/error: (absent) → {"code":-32603,"message":"injected by mcpscope"}`) ||
		strings.Contains(stdout, "tools/list       different") {
		t.Errorf("replay with a fault:\n%s\n%s", stdout, stderr)
	}
}
