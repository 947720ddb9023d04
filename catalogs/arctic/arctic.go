package arctic

import (
	"context"
	"net"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"eddy/catalogs"
)

// Type is the catalog type of Apache Amoro's (formerly Arctic's) Flink
// catalog.
const Type = "arctic"

// Options of the arctic catalog type, as Amoro's Flink catalog documents
// them.
const (
	ArcticMetastoreURL      = "metastore.url"
	ArcticPropertyVersion   = "property-version"
	arcticPropertiesPrefix  = "properties."
	ArcticAuthLoadFromAMS   = "properties.auth.load-from-ams"
	ArcticAuthType          = "properties.auth.type"
	ArcticAuthHadoopUser    = "properties.auth.simple.hadoop_username"
	ArcticAuthPrincipal     = "properties.auth.kerberos.principal"
	ArcticAuthKrbPath       = "properties.auth.kerberos.krb.path"
	ArcticAuthKeytabPath    = "properties.auth.kerberos.keytab.path"
	arcticAuthSimple        = "simple"
	arcticAuthKerberos      = "kerberos"
	arcticMetastoreURLShape = "thrift://<host>:<port>/<catalog_name_in_metastore>"
)

func arcticOptions() []string {
	return []string{
		catalogs.OptionDefaultDatabase, ArcticMetastoreURL, ArcticPropertyVersion,
		ArcticAuthLoadFromAMS, ArcticAuthType, ArcticAuthHadoopUser,
		ArcticAuthPrincipal, ArcticAuthKrbPath, ArcticAuthKeytabPath,
	}
}

// arcticService is the Amoro Management Service a valid configuration
// names.
type arcticService struct {
	host, port, catalog string
}

// parseArctic checks an arctic catalog's options as Amoro's Flink catalog
// documents them: the required metastore.url, the property version and
// the properties.auth.* rules.
func parseArctic(name string, options map[string]string) (*arcticService, error) {
	var unknown []string
	for k := range options {
		if !slices.Contains(arcticOptions(), k) && !strings.HasPrefix(k, arcticPropertiesPrefix) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		supported := arcticOptions()
		sort.Strings(supported)
		return nil, catalogs.Errorf(catalogs.ErrInvalidOption,
			"Unsupported options found for catalog '%s' of type '%s'.\n\nUnsupported options:\n\n%s\n\nSupported options:\n\n%s\nproperties.*",
			name, Type, strings.Join(unknown, "\n"), strings.Join(supported, "\n"))
	}
	raw, ok := options[ArcticMetastoreURL]
	if !ok || strings.TrimSpace(raw) == "" {
		return nil, catalogs.Errorf(catalogs.ErrMissingOption,
			"Missing required options are:\n\n%s\n\n(catalog '%s' of type '%s' needs the URL of the Amoro Management Service, %s)",
			ArcticMetastoreURL, name, Type, arcticMetastoreURLShape)
	}
	svc, err := parseMetastoreURL(raw)
	if err != nil {
		return nil, catalogs.Errorf(catalogs.ErrInvalidOption,
			"Invalid value for option '%s': '%s' is not of the form %s: %s", ArcticMetastoreURL, raw, arcticMetastoreURLShape, err)
	}
	if v, ok := options[ArcticPropertyVersion]; ok {
		if _, err := strconv.ParseInt(strings.TrimSpace(v), 10, 32); err != nil {
			return nil, catalogs.Errorf(catalogs.ErrInvalidOption,
				"Could not parse value '%s' for key '%s' (an Integer).", v, ArcticPropertyVersion)
		}
	}
	if v, ok := options[ArcticAuthLoadFromAMS]; ok {
		if _, err := parseJavaBool(v); err != nil {
			return nil, catalogs.Errorf(catalogs.ErrInvalidOption,
				"Could not parse value '%s' for key '%s' (a Boolean: true or false).", v, ArcticAuthLoadFromAMS)
		}
	}
	authType, hasType := options[ArcticAuthType]
	switch {
	case !hasType:
		for _, k := range []string{ArcticAuthHadoopUser, ArcticAuthPrincipal, ArcticAuthKrbPath, ArcticAuthKeytabPath} {
			if _, ok := options[k]; ok {
				return nil, catalogs.Errorf(catalogs.ErrInvalidOption,
					"Option '%s' needs '%s' to be set ('%s' or '%s')", k, ArcticAuthType, arcticAuthSimple, arcticAuthKerberos)
			}
		}
	case strings.EqualFold(authType, arcticAuthSimple):
		if strings.TrimSpace(options[ArcticAuthHadoopUser]) == "" {
			return nil, catalogs.Errorf(catalogs.ErrMissingOption,
				"'%s' = 'simple' requires '%s'", ArcticAuthType, ArcticAuthHadoopUser)
		}
		for _, k := range []string{ArcticAuthPrincipal, ArcticAuthKrbPath, ArcticAuthKeytabPath} {
			if _, ok := options[k]; ok {
				return nil, catalogs.Errorf(catalogs.ErrInvalidOption,
					"Option '%s' applies to '%s' = 'kerberos', not 'simple'", k, ArcticAuthType)
			}
		}
	case strings.EqualFold(authType, arcticAuthKerberos):
		var missing []string
		for _, k := range []string{ArcticAuthPrincipal, ArcticAuthKrbPath, ArcticAuthKeytabPath} {
			if strings.TrimSpace(options[k]) == "" {
				missing = append(missing, k)
			}
		}
		if len(missing) > 0 {
			return nil, catalogs.Errorf(catalogs.ErrMissingOption,
				"'%s' = 'kerberos' requires %s", ArcticAuthType, quoteAll(missing))
		}
		for _, k := range []string{ArcticAuthKrbPath, ArcticAuthKeytabPath} {
			if !filepath.IsAbs(options[k]) {
				return nil, catalogs.Errorf(catalogs.ErrInvalidOption,
					"Invalid value for option '%s': '%s' is not an absolute path", k, options[k])
			}
		}
		if _, ok := options[ArcticAuthHadoopUser]; ok {
			return nil, catalogs.Errorf(catalogs.ErrInvalidOption,
				"Option '%s' applies to '%s' = 'simple', not 'kerberos'", ArcticAuthHadoopUser, ArcticAuthType)
		}
	default:
		return nil, catalogs.Errorf(catalogs.ErrInvalidOption,
			"Invalid value for option '%s': '%s' (valid values: %s, %s, or no value for no authentication)",
			ArcticAuthType, authType, arcticAuthSimple, arcticAuthKerberos)
	}
	return svc, nil
}

func quoteAll(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = "'" + x + "'"
	}
	return strings.Join(q, ", ")
}

// parseJavaBool parses a Boolean option as Flink does (true or false, any
// case).
func parseJavaBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, strconv.ErrSyntax
}

// parseMetastoreURL checks the thrift://host:port/catalog shape.
func parseMetastoreURL(raw string) (*arcticService, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, err
	}
	if u.Scheme != "thrift" {
		return nil, errorString("the scheme must be thrift://")
	}
	host, port, err := net.SplitHostPort(u.Host)
	if err != nil || host == "" {
		return nil, errorString("it names no host:port")
	}
	if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
		return nil, errorString("the port must be a number from 1 to 65535")
	}
	cat := strings.Trim(u.Path, "/")
	if cat == "" || strings.Contains(cat, "/") {
		return nil, errorString("the path must be the name of one catalog of the metastore")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, errorString("it takes no query or fragment")
	}
	return &arcticService{host: host, port: port, catalog: cat}, nil
}

type errorString string

func (e errorString) Error() string { return string(e) }

// Factory makes catalogs of type 'arctic': it validates their options and
// then refuses to connect, for want of an Amoro Management Service.
type Factory struct{}

// Type returns "arctic".
func (Factory) Type() string { return Type }

// Open checks the options; a valid configuration is still an error that
// names the service and the iceberg declaration that reaches it.
func (Factory) Open(ctx context.Context, name string, options map[string]string) (catalogs.Catalog, error) {
	svc, err := parseArctic(name, options)
	if err != nil {
		return nil, err
	}
	return nil, catalogs.Errorf(catalogs.ErrCatalogOpen,
		"Catalog '%s' of type 'arctic' needs the Amoro Management Service at thrift://%s (catalog '%s'), "+
			"whose Thrift protocol eddy does not speak, and no such service runs here. "+
			"Amoro serves its catalogs to engines over the Iceberg REST protocol: declare the catalog as "+
			"'type' = 'iceberg', 'catalog-type' = 'rest', 'uri' = 'http://%s:<AMS HTTP port, 1630 by default>/api/iceberg/rest', 'warehouse' = '%s'",
		name, net.JoinHostPort(svc.host, svc.port), svc.catalog, svc.host, svc.catalog)
}
