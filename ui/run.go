package ui

import (
	"context"
	"fmt"
	"io"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/traffic"
)

// frameRate is how often the renderer may draw, per second: Bubble Tea's most. A frame
// waits for the next tick to reach the terminal, so at its default of 60 the first screen,
// the ready line and every key's answer came up to 17 ms late; at 120, 8 ms. A tick with
// nothing new draws nothing.
const frameRate = 120

// Run runs the inspector until the user quits, then closes the session.
func Run(ctx context.Context, opts Options, debugPath string) error {
	var logw io.Writer
	if debugPath != "" {
		f, err := os.OpenFile(debugPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return fmt.Errorf("--debug: %w", err)
		}
		defer f.Close()
		logw = f
	}
	c := NewCommon(logw)
	defer traffic.SetMemoryLimit(opts.HistoryBytes)()
	m := NewModel(c, opts)
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithFPS(frameRate))
	final, err := p.Run()
	if opts.Asker != nil {
		opts.Asker.Close() // what still waits for the user is answered with an error
	}
	if fm, ok := final.(*Model); ok && fm.Session() != nil {
		_ = fm.Session().Close()
	}
	if opts.Recorder != nil {
		if rerr := opts.Recorder.Close(); rerr != nil && err == nil {
			return fmt.Errorf("recording %s: %w", opts.Recorder.Path, rerr)
		}
	}
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("interactive view: %w", err)
	}
	return nil
}
