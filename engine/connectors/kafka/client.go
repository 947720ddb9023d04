package kafka

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	keystore "github.com/pavlo-v-chernykh/keystore-go/v4"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
	"software.sslmate.com/src/go-pkcs12"

	"eddy/engine/connectors"
)

// defaultRequestTimeout is Kafka's 'request.timeout.ms' default: how long
// opening a source or a sink waits for the brokers.
const defaultRequestTimeout = 30 * time.Second

// defaultDeliveryTimeout is Kafka's 'delivery.timeout.ms' default.
const defaultDeliveryTimeout = 2 * time.Minute

// clientConfig is what the 'properties.*' options say about the client.
type clientConfig struct {
	brokers        []string
	groupID        string
	clientID       string
	readCommitted  bool
	requestTimeout time.Duration
	// deliveryTimeout bounds how long a sink waits for its records.
	deliveryTimeout time.Duration
	resetEarliest   *bool // 'auto.offset.reset' for group-offsets (nil: none)
	sasl            string
	user, password  string
	tls             *tls.Config
	// compression is 'compression.type' (Kafka's default: none) and
	// linger 'linger.ms': how a sink batches. Without 'linger.ms' a batch
	// goes as soon as the partition has no request in flight (the Go
	// client's way, which batches while the previous request is under
	// way; the Java client waits 5 ms).
	compression kgo.CompressionCodec
	linger      time.Duration
}

// newClientConfig reads the client properties eddy understands; the
// other 'properties.*' keys are accepted and ignored, as the Kafka
// client ignores properties it does not know.
func newClientConfig(o map[string]string) (clientConfig, error) {
	c := clientConfig{requestTimeout: defaultRequestTimeout, groupID: o[optGroupID], clientID: o["properties.client.id"]}
	for _, b := range strings.Split(o[optBootstrap], ",") {
		if b = strings.TrimSpace(b); b != "" {
			c.brokers = append(c.brokers, b)
		}
	}
	if len(c.brokers) == 0 {
		return c, validationError("Option '%s' must name at least one broker (host:port).", optBootstrap)
	}
	if v, ok := o["properties.request.timeout.ms"]; ok {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n <= 0 {
			return c, configError("request.timeout.ms", v, "Expected value to be a 32-bit integer")
		}
		c.requestTimeout = time.Duration(n) * time.Millisecond
	}
	c.deliveryTimeout = defaultDeliveryTimeout
	if v, ok := o["properties.delivery.timeout.ms"]; ok {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n <= 0 {
			return c, configError("delivery.timeout.ms", v, "Expected value to be a 32-bit integer")
		}
		c.deliveryTimeout = time.Duration(n) * time.Millisecond
	}
	switch v := o["properties.isolation.level"]; v {
	case "", "read_uncommitted":
	case "read_committed":
		c.readCommitted = true
	default:
		return c, configError("isolation.level", v, "String must be one of: read_committed, read_uncommitted")
	}
	switch v := o["properties.compression.type"]; v {
	case "", "none":
		c.compression = kgo.NoCompression()
	case "gzip":
		c.compression = kgo.GzipCompression()
	case "snappy":
		c.compression = kgo.SnappyCompression()
	case "lz4":
		c.compression = kgo.Lz4Compression()
	case "zstd":
		c.compression = kgo.ZstdCompression()
	default:
		return c, configError("compression.type", v, "String must be one of: none, gzip, snappy, lz4, zstd")
	}
	if v, ok := o["properties.linger.ms"]; ok {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n < 0 {
			return c, configError("linger.ms", v, "Value must be at least 0")
		}
		c.linger = time.Duration(n) * time.Millisecond
	}
	switch v := o["properties.auto.offset.reset"]; v {
	case "", "none":
	case "earliest", "latest":
		e := v == "earliest"
		c.resetEarliest = &e
	default:
		return c, configError("auto.offset.reset", v, "String must be one of: latest, earliest, none")
	}
	proto := strings.ToUpper(o["properties.security.protocol"])
	switch proto {
	case "", "PLAINTEXT":
	case "SSL", "SASL_SSL", "SASL_PLAINTEXT":
	default:
		return c, configError("security.protocol", o["properties.security.protocol"], "String must be one of: PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL")
	}
	if strings.HasPrefix(proto, "SASL_") {
		c.sasl = o["properties.sasl.mechanism"]
		if c.sasl == "" {
			c.sasl = "GSSAPI"
		}
		switch c.sasl {
		case "PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512":
		default:
			return c, &connectors.Error{Exception: "IllegalArgumentException",
				Msg: fmt.Sprintf("SASL mechanism '%s' is not supported; eddy's Kafka client supports PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512.", c.sasl)}
		}
		var err error
		if c.user, c.password, err = parseJAAS(o["properties.sasl.jaas.config"]); err != nil {
			return c, err
		}
	}
	if proto == "SSL" || proto == "SASL_SSL" {
		cfg, err := tlsConfig(o)
		if err != nil {
			return c, err
		}
		c.tls = cfg
	}
	return c, nil
}

// configError is the Kafka client's ConfigException for a bad property.
func configError(key, v, why string) error {
	return &connectors.Error{Exception: "ConfigException",
		Msg: fmt.Sprintf("Invalid value %s for configuration %s: %s", v, key, why)}
}

var jaasOption = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\w+)\s*=\s*"((?:[^"\\]|\\.)*)"`) })

// parseJAAS reads the user name and password of a PlainLoginModule or
// ScramLoginModule 'sasl.jaas.config'. Its errors never quote the value.
func parseJAAS(v string) (user, password string, err error) {
	if strings.TrimSpace(v) == "" {
		return "", "", &connectors.Error{Exception: "IllegalArgumentException",
			Msg: "Could not find a 'KafkaClient' entry in the JAAS configuration. System property 'java.security.auth.login.config' is not set"}
	}
	found := map[string]bool{}
	for _, m := range jaasOption().FindAllStringSubmatch(v, -1) {
		val := strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(m[2])
		switch m[1] {
		case "username":
			user, found["username"] = val, true
		case "password":
			password, found["password"] = val, true
		}
	}
	if !found["username"] || !found["password"] {
		return "", "", &connectors.Error{Exception: "IllegalArgumentException",
			Msg: "Value of 'sasl.jaas.config' must set the options username and password of its login module."}
	}
	return user, password, nil
}

// tlsConfig reads the trust store and key store options ('ssl.*') as the
// Kafka client does: a trust store of type JKS (the default), PKCS12 or
// PEM at 'ssl.truststore.location' (with 'ssl.truststore.password' for
// JKS and PKCS12), or PEM certificates in 'ssl.truststore.certificates';
// without one, the system's roots. The server's host name is checked
// against its certificate unless 'ssl.endpoint.identification.algorithm'
// is empty; its certificate chain always is. A key store (a client
// certificate) is read from PEM only.
func tlsConfig(o map[string]string) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	switch alg := o["properties.ssl.endpoint.identification.algorithm"]; {
	case !hasKey(o, "properties.ssl.endpoint.identification.algorithm"), strings.EqualFold(alg, "https"):
	case alg == "":
		// The chain is verified without the host name (VerifyConnection).
		cfg.InsecureSkipVerify = true
		cfg.VerifyConnection = func(cs tls.ConnectionState) error { return verifyChain(cfg.RootCAs, cs) }
	default:
		return nil, &connectors.Error{Exception: "IllegalArgumentException",
			Msg: fmt.Sprintf("Unsupported endpoint identification algorithm: %s", alg)}
	}
	if t := o["properties.ssl.keystore.type"]; t != "" && !strings.EqualFold(t, "PEM") {
		return nil, &connectors.Error{Exception: "IllegalArgumentException",
			Msg: fmt.Sprintf("'ssl.keystore.type' = '%s' is not supported; eddy's Kafka client reads PEM key stores only.", t)}
	}
	pool, err := trustStore(o)
	if err != nil {
		return nil, err
	}
	cfg.RootCAs = pool
	chain, key := []byte(o["properties.ssl.keystore.certificate.chain"]), []byte(o["properties.ssl.keystore.key"])
	if loc := o["properties.ssl.keystore.location"]; loc != "" {
		b, err := os.ReadFile(loc)
		if err != nil {
			return nil, &connectors.Error{Exception: "KafkaException", Msg: fmt.Sprintf("Failed to load SSL keystore %s of type PEM: %v", loc, err)}
		}
		chain, key = b, b
	}
	if len(chain) > 0 {
		cert, err := tls.X509KeyPair(chain, key)
		if err != nil {
			return nil, &connectors.Error{Exception: "KafkaException", Msg: fmt.Sprintf("Failed to load the SSL key store: %v", err)}
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg, nil
}

// verifyChain checks the server's certificate chain against roots (nil:
// the system's), whatever host name it names.
func verifyChain(roots *x509.CertPool, cs tls.ConnectionState) error {
	if len(cs.PeerCertificates) == 0 {
		return errors.New("the server sent no certificate")
	}
	opts := x509.VerifyOptions{Roots: roots, Intermediates: x509.NewCertPool()}
	for _, c := range cs.PeerCertificates[1:] {
		opts.Intermediates.AddCert(c)
	}
	_, err := cs.PeerCertificates[0].Verify(opts)
	return err
}

// trustStore returns the certificates the trust store options name, nil
// for the system's roots.
func trustStore(o map[string]string) (*x509.CertPool, error) {
	typ := strings.ToUpper(o["properties.ssl.truststore.type"])
	switch typ {
	case "", "JKS", "PKCS12", "PEM":
	default:
		return nil, &connectors.Error{Exception: "KafkaException",
			Msg: fmt.Sprintf("Failed to create SSL keystore of type %s: %s not found", o["properties.ssl.truststore.type"], o["properties.ssl.truststore.type"])}
	}
	loc, certs := o["properties.ssl.truststore.location"], o["properties.ssl.truststore.certificates"]
	password, hasPassword := o["properties.ssl.truststore.password"]
	if certs != "" {
		if typ != "PEM" {
			return nil, &connectors.Error{Exception: "InvalidConfigurationException",
				Msg: "SSL trust store certs can be specified only for PEM, but trust store type is " + orDefault(typ, "JKS") + "."}
		}
		if loc != "" {
			return nil, &connectors.Error{Exception: "InvalidConfigurationException",
				Msg: "Both SSL trust store location and separate trust certificates are specified."}
		}
		return pemPool([]byte(certs), "ssl.truststore.certificates")
	}
	if loc == "" {
		return nil, nil
	}
	if typ == "PEM" && hasPassword {
		return nil, &connectors.Error{Exception: "InvalidConfigurationException",
			Msg: "SSL trust store password cannot be specified for PEM format."}
	}
	b, err := os.ReadFile(loc)
	failed := func(t string, err error) error {
		return &connectors.Error{Exception: "KafkaException", Msg: fmt.Sprintf("Failed to load SSL keystore %s of type %s: %v", loc, t, err)}
	}
	if err != nil {
		return nil, failed(orDefault(typ, "JKS"), err)
	}
	// Without a type the Kafka client reads JKS; eddy also takes the PEM
	// files it read before trust store types were known. A JKS store of
	// Java 9 and later reads PKCS12 files too, and so does eddy's.
	switch {
	case typ == "PEM" || typ == "" && bytes.Contains(b, []byte("-----BEGIN")):
		pool, err := pemPool(b, loc)
		if err != nil {
			return nil, failed("PEM", err)
		}
		return pool, nil
	case typ != "PKCS12" && len(b) >= 4 && binary.BigEndian.Uint32(b) == jksMagic:
		ks := keystore.New()
		err := ks.Load(bytes.NewReader(b), []byte(password))
		// Without a password Java reads the entries but cannot check the
		// store's integrity: so does eddy.
		if err != nil && (password != "" || len(ks.Aliases()) == 0) {
			return nil, failed("JKS", errors.New("keystore was tampered with, or password was incorrect"))
		}
		pool := x509.NewCertPool()
		for _, a := range ks.Aliases() {
			e, err := ks.GetTrustedCertificateEntry(a)
			if err != nil {
				continue // a key entry: not a trusted certificate
			}
			c, err := x509.ParseCertificate(e.Certificate.Content)
			if err != nil {
				return nil, failed("JKS", err)
			}
			pool.AddCert(c)
		}
		return pool, nil
	default:
		cs, err := pkcs12.DecodeTrustStore(b, password)
		if err != nil {
			return nil, failed(orDefault(typ, "JKS"), err)
		}
		pool := x509.NewCertPool()
		for _, c := range cs {
			pool.AddCert(c)
		}
		return pool, nil
	}
}

// jksMagic starts a Java KeyStore file.
const jksMagic = 0xFEEDFEED

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// pemPool returns the PEM certificates of b, from source.
func pemPool(b []byte, source string) (*x509.CertPool, error) {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		return nil, &connectors.Error{Exception: "InvalidConfigurationException",
			Msg: fmt.Sprintf("Failed to load PEM SSL trust store from %s: no certificate found.", source)}
	}
	return pool, nil
}

func hasKey(o map[string]string, k string) bool {
	_, ok := o[k]
	return ok
}

// opts returns the client options every client of the table shares.
func (c clientConfig) opts() []kgo.Opt {
	opts := []kgo.Opt{
		kgo.SeedBrokers(c.brokers...),
		kgo.RequestTimeoutOverhead(c.requestTimeout),
		kgo.DialTimeout(min(c.requestTimeout, 10*time.Second)),
		kgo.RetryTimeout(c.requestTimeout),
	}
	if c.clientID != "" {
		opts = append(opts, kgo.ClientID(c.clientID))
	}
	if c.tls != nil {
		opts = append(opts, kgo.DialTLSConfig(c.tls))
	}
	switch c.sasl {
	case "PLAIN":
		opts = append(opts, kgo.SASL(plain.Auth{User: c.user, Pass: c.password}.AsMechanism()))
	case "SCRAM-SHA-256":
		opts = append(opts, kgo.SASL(scram.Auth{User: c.user, Pass: c.password}.AsSha256Mechanism()))
	case "SCRAM-SHA-512":
		opts = append(opts, kgo.SASL(scram.Auth{User: c.user, Pass: c.password}.AsSha512Mechanism()))
	}
	return opts
}

// clientError turns a client failure into the Kafka exception a Java
// client reports: a failed login, a timeout naming the bootstrap
// servers, an unknown topic.
func (c clientConfig) clientError(err error) error {
	var ce *connectors.Error
	if errors.As(err, &ce) {
		return err
	}
	var ke *kerr.Error
	switch {
	case errors.Is(err, kerr.SaslAuthenticationFailed):
		// The broker's own message follows the error code's description.
		msg := err.Error()
		desc := kerr.SaslAuthenticationFailed.Message + ": " + kerr.SaslAuthenticationFailed.Description + ": "
		if i := strings.Index(msg, desc); i >= 0 {
			msg = msg[i+len(desc):]
		}
		if c.password != "" {
			msg = strings.ReplaceAll(msg, c.password, "******")
		}
		return &connectors.Error{Exception: "SaslAuthenticationException", Msg: msg}
	case errors.Is(err, context.DeadlineExceeded), isNetError(err):
		return &connectors.Error{Exception: "TimeoutException", Msg: fmt.Sprintf(
			"Could not reach the Kafka brokers at '%s' (properties.bootstrap.servers) within %d ms: %v",
			strings.Join(c.brokers, ","), c.requestTimeout.Milliseconds(), err)}
	case errors.As(err, &ke):
		return &connectors.Error{Exception: "KafkaException", Msg: fmt.Sprintf("%s: %s", ke.Message, ke.Description)}
	}
	return &connectors.Error{Exception: "KafkaException", Msg: fmt.Sprintf("%v (the Kafka brokers at '%s', properties.bootstrap.servers)",
		err, strings.Join(c.brokers, ","))}
}

func isNetError(err error) bool {
	var ne net.Error
	var oe *net.OpError
	return errors.As(err, &ne) || errors.As(err, &oe)
}

// newAdmin opens a client for metadata and offsets.
func (c clientConfig) newAdmin(extra ...kgo.Opt) (*kgo.Client, *kadm.Client, error) {
	cl, err := kgo.NewClient(append(c.opts(), extra...)...)
	if err != nil {
		return nil, nil, &connectors.Error{Exception: "KafkaException", Msg: err.Error()}
	}
	return cl, kadm.NewClient(cl), nil
}
