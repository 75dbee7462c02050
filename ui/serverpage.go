package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/session"
)

// ServerPage shows what the server said about itself.
type ServerPage struct {
	c    *Common
	w, h int
	info session.ServerInfo
}

// NewServerPage makes the server page.
func NewServerPage(c *Common) *ServerPage { return &ServerPage{c: c} }

// SetSize sets the page size.
func (p *ServerPage) SetSize(w, h int) { p.w, p.h = w, h }

// SetInfo shows info.
func (p *ServerPage) SetInfo(info session.ServerInfo) { p.info = info }

// Update handles keys.
func (p *ServerPage) Update(msg tea.Msg) tea.Cmd { return nil }

// View renders the page.
func (p *ServerPage) View() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\nprotocol %s\n\n", p.info.Implementation.Name, p.info.Implementation.Version, p.info.Revision)
	var caps bytes.Buffer
	_ = json.Indent(&caps, p.info.Capabilities, "", "  ")
	b.WriteString(caps.String() + "\n\n" + p.info.Instructions)
	return b.String()
}
