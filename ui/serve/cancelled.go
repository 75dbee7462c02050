package serve

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// quietCancel keeps the promise cancellation asks for on stdio: the SDK answers a request
// whose handler ended because the client cancelled it, which the spec says a server should
// not do, so that response is not written. (The demo server does the same on its stdio.)
type quietCancel struct{ mcp.Transport }

// maxCancelled bounds the cancelled ids remembered until their response.
const maxCancelled = 1024

func (q quietCancel) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := q.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &quietConn{Connection: c, cancelled: map[string]bool{}}, nil
}

type quietConn struct {
	mcp.Connection
	mu        sync.Mutex
	cancelled map[string]bool // JSON of the ids notifications/cancelled named
}

func (c *quietConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if req, ok := m.(*jsonrpc.Request); ok && err == nil && req.Method == "notifications/cancelled" && !req.IsCall() {
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &p) == nil && len(p.RequestID) > 0 {
			c.mu.Lock()
			if len(c.cancelled) < maxCancelled {
				c.cancelled[string(p.RequestID)] = true
			}
			c.mu.Unlock()
		}
	}
	return m, err
}

func (c *quietConn) Write(ctx context.Context, m jsonrpc.Message) error {
	if resp, ok := m.(*jsonrpc.Response); ok {
		key, _ := json.Marshal(resp.ID.Raw())
		c.mu.Lock()
		drop := c.cancelled[string(key)]
		delete(c.cancelled, string(key))
		c.mu.Unlock()
		if drop {
			return nil
		}
	}
	return c.Connection.Write(ctx, m)
}
