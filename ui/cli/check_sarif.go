package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
)

// sarifLevel is a severity's SARIF level.
func sarifLevel(s protocol.Severity) string {
	switch s {
	case protocol.SevError:
		return "error"
	case protocol.SevWarning:
		return "warning"
	}
	return "note"
}

// writeSARIF writes the reports as one SARIF 2.1.0 log with one run: a rule per finding
// code (its explanation as help, the section of the specification as helpUri, its default
// level; for the content codes the security tag and score code scanning ranks alerts by), a
// result per finding with logical locations naming the server and the JSON pointer (fully
// qualified as "server/pointer", with no index into a run-level list), a
// physical location (artifactURI, at the line where the server's entry starts in its config
// file) and a fingerprint. A server that could not be checked is a tool execution
// notification at level error, and then the invocation was not successful. Every text is escaped as the text report escapes it.
func writeSARIF(w io.Writer, reps []serverReport) error {
	log, err := sarif.New(sarif.Version210)
	if err != nil {
		return err
	}
	run := sarif.NewRunWithInformationURI("mcpscope", "https://github.com/mcpscope/mcpscope")
	run.Tool.Driver.WithVersion(session.Version())
	helpURI := map[string]string{}
	for _, s := range reps {
		if s.Report == nil {
			continue
		}
		for _, r := range s.Report.Runs {
			for _, it := range r.Items {
				if helpURI[it.Code] == "" {
					helpURI[it.Code] = it.Spec.URL()
				}
			}
		}
	}
	for _, code := range protocol.FindingCodes() {
		explain := protocol.Explain(code)
		short, _, _ := strings.Cut(explain, ". ")
		rule := run.AddRule(code).WithName(code).
			WithShortDescription(sarif.NewMultiformatMessageString(strings.TrimSuffix(short, ".") + ".")).
			WithFullDescription(sarif.NewMultiformatMessageString(explain)).
			WithTextHelp(explain).
			WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(sarifLevel(protocol.SeverityOf(code, protocol.EvidenceNone))))
		u := helpURI[code]
		if u == "" {
			u = protocol.SpecFor(code, protocol.Rev20251125).URL()
		}
		if u != "" {
			rule.WithHelpURI(u)
		}
		props := sarif.NewPropertyBag()
		if strings.HasPrefix(code, "content.") {
			// Code scanning ranks security alerts by this score: 8 is high, 5 medium, 2 low.
			score := map[protocol.Severity]string{protocol.SevError: "8.0", protocol.SevWarning: "5.0"}[protocol.SeverityOf(code, protocol.EvidenceNone)]
			if score == "" {
				score = "2.0"
			}
			props.Add("tags", []string{"security", "mcp"})
			props.Add("security-severity", score)
		} else {
			props.Add("tags", []string{"mcp", "conformance"})
		}
		rule.AttachPropertyBag(props)
	}
	// The execution succeeded when every server was checked (or only needs a login).
	ok := true
	for _, s := range reps {
		if s.Report == nil && !s.Login {
			ok = false
		}
	}
	inv := run.AddInvocation(ok)
	for _, s := range reps {
		name := jsonview.EscapeText(s.Name)
		if s.Report == nil {
			inv.AddTToolExecutionNotification(sarif.NewNotification().WithLevel("error").
				WithTextMessage(name + ": " + jsonview.EscapeText(s.Err)))
			continue
		}
		for _, r := range s.Report.Runs {
			if r.Err != "" {
				inv.AddTToolExecutionNotification(sarif.NewNotification().WithLevel("error").
					WithTextMessage(name + " " + string(r.Revision) + ": " + jsonview.EscapeText(r.Err)))
			}
			for _, it := range r.Items {
				loc := sarif.NewLocation()
				loc.AddLogicalLocations(sarif.NewLogicalLocation().WithName(name).WithFullyQualifiedName(name).WithKind("module"))
				if it.Pointer != "" {
					p := jsonview.EscapeText(it.Pointer)
					// No parentIndex: it would index run.logicalLocations (SARIF 2.1.0 §3.33.8),
					// which this log does not have; the qualified name "server/pointer" says the
					// same and is what viewers show.
					loc.AddLogicalLocations(sarif.NewLogicalLocation().WithName(p).WithFullyQualifiedName(name + p).
						WithKind("member"))
				}
				loc.WithPhysicalLocation(sarif.NewPhysicalLocation().
					WithArtifactLocation(sarif.NewSimpleArtifactLocation(artifactURI(s.Source, s.Name))).
					WithRegion(sarif.NewSimpleRegion(max(1, s.Line), max(1, s.Line))))
				msg := jsonview.EscapeText(it.Message)
				res := run.CreateResultForRule(it.Code).WithLevel(sarifLevel(it.Severity)).
					WithMessage(sarif.NewTextMessage(name + ": " + msg)).
					WithLocations([]*sarif.Location{loc}).
					WithPartialFingerPrints(map[string]any{"primaryLocationLineHash": fingerprint(s.Name, it.Code, it.Pointer, msg)})
				pb := sarif.NewPropertyBag()
				pb.Add("server", name)
				if s.Source != "" {
					pb.Add("source", jsonview.EscapeText(s.Source))
				}
				pb.Add("revision", string(r.Revision))
				if it.Pointer != "" {
					pb.Add("pointer", jsonview.EscapeText(it.Pointer))
				}
				res.AttachPropertyBag(pb)
			}
		}
	}
	log.AddRun(run)
	return log.PrettyWrite(w)
}

// artifactURI is where code scanning shows a server's results: its config file relative
// to the working directory when the file lies under it (the repository a CI job checked
// out), else a path named after the server, "mcp-server/NAME". Code scanning accepts only
// paths in the repository and needs one on every result; the config file's real path is
// the result's "source" property.
func artifactURI(source, name string) string {
	if source != "" {
		if cwd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(cwd, source); err == nil && !strings.HasPrefix(rel, "..") {
				return filepath.ToSlash(rel)
			}
		}
	}
	safe := []rune(name)
	for i, r := range safe {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			safe[i] = '_'
		}
	}
	if len(safe) == 0 || string(safe) == "." || string(safe) == ".." {
		safe = []rune("server")
	}
	return "mcp-server/" + string(safe)
}

// fingerprint tells one finding from the next across runs, so code scanning keeps one
// alert per finding: the server, the code and the place (the JSON pointer; the message for
// a finding without one).
func fingerprint(server, code, pointer, msg string) string {
	where := pointer
	if where == "" {
		where = msg
	}
	sum := sha256.Sum256([]byte(server + "\x00" + code + "\x00" + where))
	return hex.EncodeToString(sum[:16])
}
