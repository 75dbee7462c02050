package cli

import (
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui"
)

// OpenCmd is the interactive inspector, the default command.
type OpenCmd struct {
	Debug   string `help:"Write a debug log to this file while the inspector runs." type:"path" placeholder:"FILE"`
	History int    `help:"How many timeline rows to keep in memory; older ones are dropped (and counted)." default:"200000"`
}

// Run implements the command.
func (c OpenCmd) Run(r *runner) error {
	sp, err := r.flags.spec(r.command)
	if err != nil {
		return err
	}
	cfg, err := r.flags.sessionConfig()
	if err != nil {
		return err
	}
	newSession := func() (*session.Session, error) {
		tr, err := sp.NewTransport()
		if err != nil {
			return nil, err
		}
		c := cfg
		c.Transport = tr
		return session.New(c), nil
	}
	name := "stdio"
	if sp.URL != "" {
		name = "http"
	}
	opts := ui.Options{NewSession: newSession, TransportName: name, Target: sp.Describe(), HistoryLimit: c.History}
	return ui.Run(r.ctx, opts, c.Debug)
}
