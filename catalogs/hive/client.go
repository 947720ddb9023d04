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
	uri  string // thrift://host:port, for messages
	host string // host:port
	// broken is set when a call failed in its transport: the next call
	// connects again.
	broken bool

	mu    sync.Mutex
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
	timeout := connectTimeout
	if d, ok := ctx.Deadline(); ok && time.Until(d) < timeout {
		timeout = max(time.Until(d), time.Millisecond)
	}
	cfg := &thrift.TConfiguration{ConnectTimeout: timeout, SocketTimeout: socketTimeout}
	sock := thrift.NewTSocketConf(pu.Host, cfg)
	if err := sock.Open(); err != nil {
		return nil, fmt.Errorf("could not connect to the Hive metastore at %s: %v", shown, unwrapThrift(err))
	}
	trans := thrift.NewTBufferedTransport(sock, 8192)
	proto := thrift.NewTBinaryProtocolConf(trans, cfg)
	c := &client{uri: shown, host: pu.Host, trans: trans, hms: hms.NewThriftHiveMetastoreClient(thrift.NewTStandardClient(proto, proto))}
	// A socket that accepts is not yet a metastore: ask it something.
	if _, err := c.hms.GetAllDatabases(ctx); err != nil {
		trans.Close()
		return nil, fmt.Errorf("the Hive metastore at %s does not answer: %v", shown, unwrapThrift(err))
	}
	return c, nil
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
		c.trans, c.hms, c.broken = nc.trans, nc.hms, false
	}
	err := f(ctx, c.hms)
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
	c.trans, c.hms = nil, nil
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
