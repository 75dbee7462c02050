package cli

import (
	"io"
	"net/url"
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
// level), a result per finding with logical locations naming the server and the JSON
// pointer, and the config file the server came from as the physical location. A server
// that could not be checked is a tool execution notification. Every text is escaped as the
// text report escapes it.
func writeSARIF(w io.Writer, reps []serverReport) error {
	log, err := sarif.New(sarif.Version210)
	if err != nil {
		return err
	}
	run := sarif.NewRunWithInformationURI("mcpscope", "https://github.com/mcpscope/mcpscope")
	run.Tool.Driver.WithVersion(session.Version)
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
	}
	inv := run.AddInvocation(true)
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
					loc.AddLogicalLocations(sarif.NewLogicalLocation().WithName(p).WithFullyQualifiedName(name + p).
						WithKind("member").WithParentIndex(0))
				}
				if uri := artifactURI(s.Source); uri != "" {
					loc.WithPhysicalLocation(sarif.NewPhysicalLocation().
						WithArtifactLocation(sarif.NewSimpleArtifactLocation(uri)).WithRegion(sarif.NewSimpleRegion(1, 1)))
				}
				res := run.CreateResultForRule(it.Code).WithLevel(sarifLevel(it.Severity)).
					WithMessage(sarif.NewTextMessage(name + ": " + jsonview.EscapeText(it.Message))).
					WithLocations([]*sarif.Location{loc})
				pb := sarif.NewPropertyBag()
				pb.Add("server", name)
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

// artifactURI is a config file as a SARIF artifact URI: relative to the working directory
// when it lies under it (so that code scanning finds it in the repository), else a file URI.
func artifactURI(path string) string {
	if path == "" {
		return ""
	}
	if cwd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(cwd, path); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}
