package auth

import (
	"net"
	"sync"
	"sync/atomic"
)

// maxCallbackConns bounds the connections the loopback listener holds open at once. The
// browser's redirect needs one (two with a favicon request); the server's timeouts cut a
// slow one, and this cap keeps a flood of idle connections from holding more meanwhile.
const maxCallbackConns = 32

// capListener accepts connections up to max open at once and closes any beyond that at
// once, counting them; onShed runs on the first. It sheds rather than blocks: the flood's
// connections cost nothing, and the browser, whose redirect may be shed too, shows an
// error at once (a reload goes through once the flood ends) instead of waiting behind the
// flood in the kernel's queue.
type capListener struct {
	net.Listener
	max    int32
	onShed func()
	open   atomic.Int32
	shed   atomic.Int64
}

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.open.Add(1) > l.max {
			l.open.Add(-1)
			_ = c.Close()
			if l.shed.Add(1) == 1 && l.onShed != nil {
				l.onShed()
			}
			continue
		}
		return &capConn{Conn: c, l: l}, nil
	}
}

// capConn gives its place back once, on its first Close.
type capConn struct {
	net.Conn
	l    *capListener
	once sync.Once
}

func (c *capConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.open.Add(-1) })
	return err
}
