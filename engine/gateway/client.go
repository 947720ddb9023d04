package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// MinVersion and MaxVersion bound the REST API versions eddy speaks: v2 is
// the first with rowFormat and complete-statement (what the Flink SQL
// client needs), v4 the newest Flink 2.x serves. The statement, result and
// session endpoints are the same in all three.
const (
	MinVersion = 2
	MaxVersion = 4
)

// DefaultRequestTimeout bounds one HTTP request to the gateway.
const DefaultRequestTimeout = 60 * time.Second

// maxBody bounds a response body read into memory.
const maxBody = 256 << 20

// ClientConfig says how to reach a gateway.
type ClientConfig struct {
	// Endpoint is the gateway's base URL: http://host:8083 or https://...
	// A URL without a scheme means http.
	Endpoint string
	// Headers are sent with every request (FLINK_REST_CLIENT_HEADERS, see
	// ParseHeaders).
	Headers http.Header
	// RequestTimeout bounds each request; 0 means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// HTTPClient sends the requests; nil means a client of its own. Set
	// one to configure TLS.
	HTTPClient *http.Client
}

// Client speaks the SQL Gateway REST API at one negotiated version.
type Client struct {
	base    *url.URL
	version int
	headers http.Header
	timeout time.Duration
	hc      *http.Client
}

// NewClient checks the endpoint and negotiates the API version: the newest
// one both the gateway (GET /api_versions) and eddy speak, at least v2.
func NewClient(ctx context.Context, cfg ClientConfig) (*Client, error) {
	raw := strings.TrimSpace(cfg.Endpoint)
	if raw == "" {
		return nil, fmt.Errorf("gateway: no endpoint")
	}
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("gateway: endpoint %q: %w", cfg.Endpoint, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("gateway: endpoint %q: scheme must be http or https", cfg.Endpoint)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("gateway: endpoint %q has no host", cfg.Endpoint)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	c := &Client{base: u, headers: cfg.Headers, timeout: cfg.RequestTimeout, hc: cfg.HTTPClient}
	if c.timeout <= 0 {
		c.timeout = DefaultRequestTimeout
	}
	if c.hc == nil {
		c.hc = &http.Client{Transport: &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			DialContext:         (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			TLSHandshakeTimeout: 10 * time.Second,
			MaxIdleConnsPerHost: 4,
			IdleConnTimeout:     90 * time.Second,
		}}
	}
	var versions struct {
		Versions []string `json:"versions"`
	}
	if err := c.do(ctx, http.MethodGet, "/api_versions", nil, &versions); err != nil {
		return nil, fmt.Errorf("gateway %s: %w", u, err)
	}
	v, err := pickVersion(versions.Versions)
	if err != nil {
		return nil, fmt.Errorf("gateway %s: %w", u, err)
	}
	c.version = v
	return c, nil
}

// pickVersion returns the newest version in [MinVersion, MaxVersion] that
// the gateway lists ("V1", "V2", ...).
func pickVersion(offered []string) (int, error) {
	best := 0
	for _, s := range offered {
		n, err := strconv.Atoi(strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(s)), "V"))
		if err == nil && n >= MinVersion && n <= MaxVersion && n > best {
			best = n
		}
	}
	if best == 0 {
		return 0, fmt.Errorf("the gateway speaks REST API versions %v; eddy needs v%d or later", offered, MinVersion)
	}
	return best, nil
}

// Version returns the negotiated API version (2, 3, 4).
func (c *Client) Version() int { return c.version }

// Endpoint returns the gateway's base URL.
func (c *Client) Endpoint() string { return c.base.String() }

// path returns a versioned path: "/v3" + p.
func (c *Client) path(p string) string { return "/v" + strconv.Itoa(c.version) + p }

// Info returns the gateway's product name and version (GET /info).
func (c *Client) Info(ctx context.Context) (product, version string, err error) {
	var info struct {
		ProductName string `json:"productName"`
		Version     string `json:"version"`
	}
	if err := c.do(ctx, http.MethodGet, c.path("/info"), nil, &info); err != nil {
		return "", "", err
	}
	return info.ProductName, info.Version, nil
}

// do sends one request with a JSON body (nil for none) and decodes the JSON
// answer into out (nil to ignore it). A GET is idempotent and is retried
// once after a transport failure or a 502/503/504.
func (c *Client) do(ctx context.Context, method, path string, body, out any) error {
	var payload []byte
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		payload = b
	}
	attempts := 1
	if method == http.MethodGet {
		attempts = 2
	}
	var err error
	for i := range attempts {
		if i > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(200 * time.Millisecond):
			}
		}
		var retry bool
		retry, err = c.once(ctx, method, path, payload, out)
		if err == nil || !retry || ctx.Err() != nil {
			break
		}
	}
	return err
}

// once sends one request and says whether a failure may be retried.
func (c *Client) once(ctx context.Context, method, path string, payload []byte, out any) (retry bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	ref, err := url.Parse(path)
	if err != nil {
		return false, err
	}
	u := *c.base
	u.Path = c.base.Path + ref.Path
	u.RawQuery = ref.RawQuery
	var rd io.Reader
	if payload != nil {
		rd = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return false, err
	}
	for k, vs := range c.headers {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	req.Header.Set("Accept", "application/json")
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		if errors.Is(err, context.Canceled) && ctx.Err() != nil {
			return false, err
		}
		return true, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return true, fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		switch resp.StatusCode {
		case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			retry = true
		}
		return retry, newHTTPError(method, path, resp.StatusCode, data)
	}
	if out == nil || len(bytes.TrimSpace(data)) == 0 {
		return false, nil
	}
	if err := decodeJSON(data, out); err != nil {
		return false, fmt.Errorf("%s %s: bad answer: %w", method, path, err)
	}
	return false, nil
}

// ParseHeaders reads HTTP headers in the form of Flink's
// FLINK_REST_CLIENT_HEADERS environment variable: one "Name:value" per line
// (Flink's ClientUtils.readHeadersFromEnvironmentVariable). Like Flink it
// skips malformed lines; it returns them so that the caller can warn.
func ParseHeaders(s string) (h http.Header, skipped []string) {
	h = http.Header{}
	for _, line := range strings.Split(s, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			skipped = append(skipped, line)
			continue
		}
		h.Add(name, strings.TrimSpace(value))
	}
	return h, skipped
}
