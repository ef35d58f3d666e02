package reftest

import (
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
)

// OpenConns counts the open connections of the HTTP client it makes, for a
// test to see that a call released its own (a stream closed, cancelled or
// left). Keep-alives are off, so a connection is open only while a
// response holds it.
type OpenConns struct{ n atomic.Int64 }

// Client returns an HTTP client whose connections are counted.
func (o *OpenConns) Client() *http.Client {
	var d net.Dialer
	return &http.Client{Transport: &http.Transport{
		DisableKeepAlives: true,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := d.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			o.n.Add(1)
			return &countedConn{Conn: c, o: o}, nil
		},
	}}
}

// Open is the number of connections open now.
func (o *OpenConns) Open() int64 { return o.n.Load() }

type countedConn struct {
	net.Conn
	o    *OpenConns
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.o.n.Add(-1) })
	return c.Conn.Close()
}
