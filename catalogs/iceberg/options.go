package iceberg

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	iceberg "github.com/apache/iceberg-go"
	icat "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/hadoop"
	"github.com/apache/iceberg-go/catalog/rest"

	"eddy/catalogs"
)

// Type is the catalog type this package serves.
const Type = "iceberg"

// Options of Iceberg's Flink catalog (FlinkCatalogFactory and Iceberg's
// CatalogProperties) that eddy reads. Like Iceberg's factory, the catalog
// accepts every other option and passes it to the catalog as a property.
const (
	OptionCatalogType     = "catalog-type"
	OptionCatalogImpl     = "catalog-impl"
	OptionURI             = "uri"
	OptionWarehouse       = "warehouse"
	OptionCredential      = "credential"
	OptionToken           = "token"
	OptionIOImpl          = "io-impl"
	OptionBaseNamespace   = "base-namespace"
	OptionPrefix          = "prefix"
	OptionOAuthServerURI  = "oauth2-server-uri"
	OptionScope           = "scope"
	OptionCacheEnabled    = "cache-enabled"
	OptionCacheExpiration = "cache.expiration-interval-ms"
	OptionHiveConfDir     = "hive-conf-dir"
	OptionHadoopConfDir   = "hadoop-conf-dir"
	optionHeaderPrefix    = "header."
)

// Values of 'catalog-type'.
const (
	catalogTypeHive   = "hive"
	catalogTypeHadoop = "hadoop"
	catalogTypeREST   = "rest"
)

// fileIOs are the io-impl classes whose work iceberg-go's file IO does
// (it picks the file system by the location's scheme).
var fileIOs = []string{
	"org.apache.iceberg.hadoop.HadoopFileIO",
	"org.apache.iceberg.io.ResolvingFileIO",
	"org.apache.iceberg.aws.s3.S3FileIO",
	"org.apache.iceberg.gcp.gcs.GCSFileIO",
	"org.apache.iceberg.azure.adlsv2.ADLSFileIO",
}

// config is what an iceberg catalog is opened with.
type config struct {
	name        string
	catalogType string
	uri         string
	warehouse   string
	defaultDB   string
	baseNS      []string
	props       iceberg.Properties // every option but type
}

// parseOptions checks the options as Iceberg's FlinkCatalogFactory and the
// catalog it loads do.
func parseOptions(name string, options map[string]string) (*config, error) {
	cfg := &config{name: name, defaultDB: catalogs.DefaultDatabaseOf(options), props: iceberg.Properties{}}
	for k, v := range options {
		cfg.props[k] = v
	}
	impl := options[OptionCatalogImpl]
	ctype, typeSet := options[OptionCatalogType]
	if impl != "" {
		if typeSet {
			return nil, catalogs.Errorf(catalogs.ErrInvalidOption,
				"Cannot create catalog %s, both catalog-type and catalog-impl are set: catalog-type=%s, catalog-impl=%s", name, ctype, impl)
		}
		return nil, catalogs.Errorf(catalogs.ErrInvalidOption,
			"Cannot create catalog %s: catalog-impl=%s names a Java class, which eddy cannot load; use 'catalog-type' = 'rest' or 'hadoop'", name, impl)
	}
	if !typeSet {
		ctype = catalogTypeHive
	}
	cfg.catalogType = strings.ToLower(ctype)
	switch cfg.catalogType {
	case catalogTypeREST:
		cfg.uri = options[OptionURI]
		if cfg.uri == "" {
			return nil, catalogs.Errorf(catalogs.ErrMissingOption, "Invalid uri for http client: null")
		}
		u, err := url.Parse(cfg.uri)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, catalogs.Errorf(catalogs.ErrInvalidOption, "Invalid uri for http client: %s (an http:// or https:// URI of an Iceberg REST catalog)", cfg.uri)
		}
	case catalogTypeHadoop:
		cfg.warehouse = options[OptionWarehouse]
		if cfg.warehouse == "" {
			return nil, catalogs.Errorf(catalogs.ErrMissingOption,
				"Cannot initialize HadoopCatalog because warehousePath must not be null or empty")
		}
	case catalogTypeHive:
		return nil, catalogs.Errorf(catalogs.ErrInvalidOption,
			"Cannot create catalog %s: 'catalog-type' = 'hive' (the default when neither catalog-type nor catalog-impl is set) needs Iceberg's Hive catalog, which eddy does not have; use 'catalog-type' = 'rest' with 'uri', or 'hadoop' with 'warehouse'", name)
	default:
		return nil, catalogs.Errorf(catalogs.ErrInvalidOption,
			"Unknown catalog-type: %s (Must be 'hive', 'hadoop' or 'rest')", ctype)
	}
	if io, ok := options[OptionIOImpl]; ok && !contains(fileIOs, io) {
		return nil, catalogs.Errorf(catalogs.ErrInvalidOption,
			"Cannot initialize FileIO implementation %s: eddy's file IO serves %s", io, strings.Join(fileIOs, ", "))
	}
	for _, k := range []string{OptionCacheEnabled} {
		if v, ok := options[k]; ok {
			if _, err := strconv.ParseBool(v); err != nil {
				return nil, catalogs.Errorf(catalogs.ErrInvalidOption, "Invalid value for option '%s': '%s' is not a boolean", k, v)
			}
		}
	}
	if v, ok := options[OptionCacheExpiration]; ok {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return nil, catalogs.Errorf(catalogs.ErrInvalidOption, "Invalid value for option '%s': '%s' is not a number", OptionCacheExpiration, v)
		}
		if n == 0 {
			return nil, catalogs.Errorf(catalogs.ErrInvalidOption, "%s is not allowed to be 0.", OptionCacheExpiration)
		}
	}
	if b := options[OptionBaseNamespace]; b != "" {
		cfg.baseNS = strings.Split(b, ".")
	}
	return cfg, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// connectTimeout bounds connecting to the REST catalog; requestTimeout
// bounds each request, so that an unreachable catalog is an error, never
// a hang.
const (
	connectTimeout = 10 * time.Second
	requestTimeout = 2 * time.Minute
)

func httpTransport() *http.Transport {
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: connectTimeout}).DialContext,
		TLSHandshakeTimeout:   connectTimeout,
		ResponseHeaderTimeout: requestTimeout,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
	}
}

// open connects the iceberg-go catalog the configuration names.
func (cfg *config) open(ctx context.Context) (icat.Catalog, error) {
	switch cfg.catalogType {
	case catalogTypeHadoop:
		c, err := hadoop.NewCatalog(cfg.name, cfg.warehouse, cfg.props)
		if err != nil {
			return nil, catalogs.Errorf(catalogs.ErrInvalidOption, "Cannot open Hadoop catalog at warehouse %s: %v", cfg.warehouse, err)
		}
		return c, nil
	}
	opts := []rest.Option{rest.WithCustomTransport(httpTransport()), rest.WithAdditionalProps(cfg.props)}
	if v := cfg.props[OptionCredential]; v != "" {
		opts = append(opts, rest.WithCredential(v))
	}
	if v := cfg.props[OptionToken]; v != "" {
		opts = append(opts, rest.WithOAuthToken(v))
	}
	if v := cfg.props[OptionWarehouse]; v != "" {
		opts = append(opts, rest.WithWarehouseLocation(v))
	}
	if v := cfg.props[OptionPrefix]; v != "" {
		opts = append(opts, rest.WithPrefix(v))
	}
	if v := cfg.props[OptionScope]; v != "" {
		opts = append(opts, rest.WithScope(v))
	}
	if v := cfg.props[OptionOAuthServerURI]; v != "" {
		u, err := url.Parse(v)
		if err != nil {
			return nil, catalogs.Errorf(catalogs.ErrInvalidOption, "Invalid %s: %s", OptionOAuthServerURI, v)
		}
		opts = append(opts, rest.WithAuthURI(u))
	}
	headers := map[string]string{}
	for k, v := range cfg.props {
		if strings.HasPrefix(k, optionHeaderPrefix) {
			headers[strings.TrimPrefix(k, optionHeaderPrefix)] = v
		}
	}
	if len(headers) > 0 {
		opts = append(opts, rest.WithHeaders(headers))
	}
	cctx, cancel := context.WithTimeout(ctx, connectTimeout+requestTimeout/4)
	defer cancel()
	c, err := rest.NewCatalog(cctx, cfg.name, cfg.uri, opts...)
	if err != nil {
		return nil, catalogs.Errorf(catalogs.ErrCatalogOpen, "Cannot reach the Iceberg REST catalog at %s: %v", redactURI(cfg.uri), err)
	}
	return c, nil
}

// redactURI drops a password from a URI for messages.
func redactURI(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	return u.Redacted()
}

// Factory makes iceberg catalogs.
type Factory struct{}

// Type returns "iceberg".
func (Factory) Type() string { return Type }

// Open checks the options and connects to the Iceberg catalog.
func (Factory) Open(ctx context.Context, name string, options map[string]string) (catalogs.Catalog, error) {
	cfg, err := parseOptions(name, options)
	if err != nil {
		return nil, err
	}
	ic, err := cfg.open(ctx)
	if err != nil {
		return nil, err
	}
	return &Catalog{name: name, cfg: cfg, ic: ic}, nil
}
