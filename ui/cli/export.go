package cli

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/mcpscope/mcpscope/recordings/export"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/secret"
)

// ExportCmd turns a recording into HAR, OTLP traces or NDJSON.
type ExportCmd struct {
	Format      string `help:"har (HAR 1.2), otlp (OTLP/JSON traces, or sent to an OTLP/HTTP endpoint) or ndjson (one event a line)." enum:"har,otlp,ndjson" required:"" placeholder:"FORMAT"`
	File        string `arg:"" help:"The recording to export." type:"existingfile" placeholder:"FILE.jsonl"`
	Output      string `short:"o" help:"Write to this file (it must not exist yet) instead of stdout; with --format otlp and no -o, the spans are sent to the OTLP endpoint when one is configured." type:"path" placeholder:"OUT"`
	Endpoint    string `name:"otlp-endpoint" help:"With --format otlp: send the spans to this OTLP/HTTP traces URL (default: $OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or $OTEL_EXPORTER_OTLP_ENDPOINT)." placeholder:"URL"`
	ServiceName string `help:"With --format otlp: the service.name of the spans (default: $OTEL_SERVICE_NAME, else service.name in $OTEL_RESOURCE_ATTRIBUTES, else the recording's server name, else mcpscope)." placeholder:"NAME"`
}

// Run implements the command.
func (c ExportCmd) Run(r *runner) error {
	if c.Format != "otlp" && (c.Endpoint != "" || c.ServiceName != "") {
		return usageError{errors.New("export: --otlp-endpoint and --service-name go with --format otlp")}
	}
	if c.Endpoint != "" && c.Output != "" {
		return usageError{errors.New("export: -o writes a file and --otlp-endpoint sends the spans: choose one")}
	}
	src, err := export.Open(c.File, secret.New(nil, r.flags.NoRedact))
	if err != nil {
		return usageError{err}
	}
	defer src.Close()
	o := export.OTLPOptions{Endpoint: c.Endpoint, ServiceName: c.ServiceName, Version: session.Version()}
	if c.Format == "otlp" && c.Output == "" && (c.Endpoint != "" || otlpEnvEndpoint()) {
		if err := export.SendOTLP(r.ctx, src, o); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		c.skipped(r, src)
		return nil
	}
	w, done, err := c.output(r)
	if err != nil {
		return err
	}
	switch c.Format {
	case "har":
		err = export.WriteHAR(w, src, session.Version())
	case "otlp":
		err = export.WriteOTLPJSON(r.ctx, w, src, o)
	case "ndjson":
		err = export.NDJSON(w, src)
	}
	if derr := done(); err == nil {
		err = derr
	}
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	c.skipped(r, src)
	return nil
}

// output is where the export goes: stdout, or a new file.
func (c ExportCmd) output(r *runner) (io.Writer, func() error, error) {
	if c.Output == "" || c.Output == "-" {
		return r.stdout, func() error { return nil }, nil
	}
	f, err := os.OpenFile(c.Output, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return nil, nil, usageError{fmt.Errorf("export: %s already exists: choose another file or remove it", c.Output)}
		}
		return nil, nil, fmt.Errorf("export: %w", err)
	}
	return f, f.Close, nil
}

// skipped says on stderr how many lines of the recording were not events.
func (c ExportCmd) skipped(r *runner, src *export.Source) {
	if src.Skipped > 0 {
		fmt.Fprintf(r.stderr, "mcpscope export: %d lines of %s could not be read as events and were left out\n", src.Skipped, c.File)
	}
}

// otlpEnvEndpoint reports whether the environment names an OTLP endpoint for traces.
func otlpEnvEndpoint() bool {
	return os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != ""
}
