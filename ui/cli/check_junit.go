package cli

import (
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/check"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
)

// checkSteps are the steps of a check, in order, as JUnit test cases; stepOf says which a
// finding code belongs to.
var checkSteps = []string{"connect", "handshake", "lists", "definitions", "content", "context cost", "reads",
	"calls", "error behaviour", "cancellation", "timing", "frames"}

// stepOf is the step of check that raises code.
func stepOf(code string) string {
	switch code {
	case protocol.FindHandshake:
		return "handshake"
	case protocol.FindCapabilityMismatch, protocol.FindPagination:
		return "lists"
	case protocol.FindToolName, protocol.FindToolSchema, protocol.FindToolAnnotations, protocol.FindToolDescription,
		protocol.FindPromptArguments, protocol.FindResourceDef, protocol.FindToolHeader:
		return "definitions"
	case protocol.FindContextCost:
		return "context cost"
	case protocol.FindResourceRead:
		return "reads"
	case protocol.FindStructuredContent:
		return "calls"
	case protocol.FindErrorCodeExpected, protocol.FindPing, protocol.FindInputValidation:
		return "error behaviour"
	case protocol.FindCancelIgnored, protocol.FindAfterCancel, protocol.FindLateResponse:
		return "cancellation"
	case protocol.FindSlow, protocol.FindStartup:
		return "timing"
	}
	if strings.HasPrefix(code, "content.") {
		return "content"
	}
	return "frames"
}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// writeJUnit writes the reports as JUnit XML: a suite per server and era, a test case per
// step of the check and per finding code seen. A case fails when one of its findings
// reaches threshold (--fail-on; 0 fails none); findings below it are its system-out. A
// server that needs a login is a skipped case, one that could not be checked a failed one.
func writeJUnit(w io.Writer, reps []serverReport, threshold int) error {
	all := junitSuites{Name: "mcpscope check"}
	for _, s := range reps {
		name := jsonview.EscapeText(s.Name)
		class := "mcpscope.check." + name
		if s.Report == nil {
			c := junitCase{Name: "connect", ClassName: class}
			msg := &junitMessage{Message: jsonview.EscapeText(s.Err), Text: jsonview.EscapeText(s.Err)}
			suite := junitSuite{Name: name, Tests: 1}
			if s.Login {
				c.Skipped, suite.Skipped = msg, 1
			} else {
				c.Failure, suite.Failures = msg, 1
				msg.Type = "not-checked"
			}
			suite.Cases = []junitCase{c}
			all.Suites = append(all.Suites, suite)
			continue
		}
		for _, run := range s.Report.Runs {
			all.Suites = append(all.Suites, junitRun(name, class, run, threshold))
		}
	}
	for _, s := range all.Suites {
		all.Tests += s.Tests
		all.Failures += s.Failures
		all.Skipped += s.Skipped
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(all); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// junitRun is the suite of one run: its steps, then its finding codes.
func junitRun(name, class string, run check.Run, threshold int) junitSuite {
	suite := junitSuite{Name: name + " " + string(run.Revision)}
	byStep := map[string][]check.Item{}
	byCode := map[string][]check.Item{}
	var codes []string
	for _, it := range run.Items {
		byStep[stepOf(it.Code)] = append(byStep[stepOf(it.Code)], it)
		if byCode[it.Code] == nil {
			codes = append(codes, it.Code)
		}
		byCode[it.Code] = append(byCode[it.Code], it)
	}
	slices.Sort(codes)
	add := func(caseName string, items []check.Item, failMsg string) {
		c := junitCase{Name: caseName, ClassName: class}
		var failing, other []string
		for _, it := range items {
			line := fmt.Sprintf("%s %s: %s", strings.ToUpper(it.Severity.String()), it.Code, jsonview.EscapeText(it.Message))
			if u := it.Spec.URL(); u != "" {
				line += " (" + u + ")"
			}
			if threshold > 0 && check.Rank(it.Severity) >= threshold {
				failing = append(failing, line)
			} else {
				other = append(other, line)
			}
		}
		if failMsg != "" {
			failing = append([]string{failMsg}, failing...)
		}
		if len(failing) > 0 {
			c.Failure = &junitMessage{Message: fmt.Sprintf("%d at or above --fail-on", len(failing)), Type: "finding",
				Text: strings.Join(failing, "\n")}
			suite.Failures++
		}
		c.SystemOut = strings.Join(other, "\n")
		suite.Cases = append(suite.Cases, c)
		suite.Tests++
	}
	for _, step := range checkSteps {
		failMsg := ""
		if step == "connect" && run.Err != "" {
			failMsg = "the run stopped: " + jsonview.EscapeText(run.Err)
		}
		add("step: "+step, byStep[step], failMsg)
	}
	for _, code := range codes {
		add(code, byCode[code], "")
	}
	return suite
}
