package hive

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	hms "github.com/beltran/gohive/hive_metastore"
)

// Timeouts of a metastore connection: connecting, and waiting for one
// answer.
const (
	connectTimeout = 10 * time.Second
	socketTimeout  = 60 * time.Second
)

// client is one Thrift connection to a metastore. The Thrift client is not
// safe for concurrent use, so every call holds mu.
type client struct {
	uri string // thrift://host:port, for messages
	// broken is set when a call failed in its transport: the next call
	// connects again.
	broken bool

	mu    sync.Mutex
	sock  *thrift.TSocket
	trans thrift.TTransport
	hms   *hms.ThriftHiveMetastoreClient
}

// dial connects to the first metastore of uris (hive.metastore.uris, comma
// separated) that answers, within ctx and connectTimeout.
func dial(ctx context.Context, uris string) (*client, error) {
	var errs []error
	for _, u := range strings.Split(uris, ",") {
		u = strings.TrimSpace(u)
		if u == "" {
			continue
		}
		c, err := dialOne(ctx, u)
		if err == nil {
			return c, nil
		}
		errs = append(errs, err)
	}
	if len(errs) == 0 {
		return nil, fmt.Errorf("no metastore URI given (hive.metastore.uris)")
	}
	return nil, errors.Join(errs...)
}

func dialOne(ctx context.Context, uri string) (*client, error) {
	pu, err := url.Parse(uri)
	if err != nil || pu.Scheme != "thrift" || pu.Host == "" {
		return nil, fmt.Errorf("invalid metastore URI '%s': expected thrift://host:port", uri)
	}
	if pu.Port() == "" {
		pu.Host = net.JoinHostPort(pu.Hostname(), "9083")
	}
	shown := "thrift://" + pu.Host
	timeout := within(ctx, connectTimeout)
	cfg := &thrift.TConfiguration{ConnectTimeout: timeout, SocketTimeout: socketTimeout}
	sock := thrift.NewTSocketConf(pu.Host, cfg)
	if err := sock.Open(); err != nil {
		return nil, fmt.Errorf("could not connect to the Hive metastore at %s: %v", shown, unwrapThrift(err))
	}
	trans := thrift.NewTBufferedTransport(sock, 8192)
	proto := thrift.NewTBinaryProtocolConf(trans, cfg)
	c := &client{uri: shown, sock: sock, trans: trans, hms: hms.NewThriftHiveMetastoreClient(thrift.NewTStandardClient(proto, proto))}
	// A socket that accepts is not yet a metastore: ask it something.
	pctx, cancel := c.bound(ctx)
	defer cancel()
	if _, err := c.hms.GetAllDatabases(pctx); err != nil {
		trans.Close()
		return nil, fmt.Errorf("the Hive metastore at %s does not answer: %v", shown, unwrapThrift(err))
	}
	return c, nil
}

// bound makes a call wait for an answer no longer than ctx allows (and
// never longer than socketTimeout). Thrift goes on waiting after a socket
// timeout while its context lasts, so the call gets a context that ends
// then too.
func (c *client) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	d := within(ctx, socketTimeout)
	// The socket's own timeout comes just after the context's end, so
	// that Thrift sees the context ended when the read gives up.
	c.sock.SetSocketTimeout(d + d/20)
	return context.WithTimeout(ctx, d)
}

// within returns limit, or less when ctx ends sooner: then a little
// before ctx does, so that the error names the metastore rather than only
// the expired deadline.
func within(ctx context.Context, limit time.Duration) time.Duration {
	dl, ok := ctx.Deadline()
	if !ok {
		return limit
	}
	left := time.Until(dl) * 9 / 10
	if left >= limit {
		return limit
	}
	return max(left, time.Millisecond)
}

func unwrapThrift(err error) error {
	if inner := errors.Unwrap(err); inner != nil {
		return inner
	}
	return err
}

// call runs f holding the connection. A transport failure (the metastore
// went away) is reported naming the URI.
func (c *client) call(ctx context.Context, f func(ctx context.Context, h *hms.ThriftHiveMetastoreClient) error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.hms == nil {
		return fmt.Errorf("the connection to the Hive metastore at %s is closed", c.uri)
	}
	if c.broken {
		nc, err := dialOne(ctx, c.uri)
		if err != nil {
			return err
		}
		c.trans.Close()
		c.sock, c.trans, c.hms, c.broken = nc.sock, nc.trans, nc.hms, false
	}
	cctx, cancel := c.bound(ctx)
	defer cancel()
	err := f(cctx, c.hms)
	if err != nil && cctx.Err() != nil && ctx.Err() == nil {
		c.broken = true
		return fmt.Errorf("the Hive metastore at %s did not answer in time: %v", c.uri, unwrapThrift(err))
	}
	var te thrift.TTransportException
	var pe thrift.TProtocolException
	if errors.As(err, &te) || errors.As(err, &pe) {
		c.broken = true
		return fmt.Errorf("Hive metastore at %s: %v", c.uri, unwrapThrift(err))
	}
	return err
}

func (c *client) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.trans == nil {
		return nil
	}
	err := c.trans.Close()
	c.sock, c.trans, c.hms = nil, nil, nil
	return err
}

// Metastore exception kinds.
func isNoSuchObject(err error) bool {
	var e *hms.NoSuchObjectException
	return errors.As(err, &e)
}

func isAlreadyExists(err error) bool {
	var e *hms.AlreadyExistsException
	return errors.As(err, &e)
}

func isInvalidOperation(err error) bool {
	var e *hms.InvalidOperationException
	return errors.As(err, &e)
}

func isUnknownDB(err error) bool {
	var e *hms.UnknownDBException
	return errors.As(err, &e)
}
