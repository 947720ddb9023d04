package hive

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"eddy/catalogs"
)

// Type is the catalog type this package serves.
const Type = "hive"

// Options of the hive catalog type (Flink's HiveCatalogFactoryOptions).
const (
	OptionHiveConfDir   = "hive-conf-dir"
	OptionHiveVersion   = "hive-version"
	OptionHadoopConfDir = "hadoop-conf-dir"
)

// Keys read from hive-site.xml.
const (
	confMetastoreURIs = "hive.metastore.uris"
	confWarehouse     = "hive.metastore.warehouse.dir"
	confWarehouseNew  = "metastore.warehouse.dir"
)

// config is what a hive catalog is opened with.
type config struct {
	defaultDB string
	uris      string            // hive.metastore.uris
	warehouse string            // hive.metastore.warehouse.dir, or ""
	site      map[string]string // every property of hive-site.xml
}

func supportedOptions() []string {
	return []string{catalogs.OptionDefaultDatabase, OptionHadoopConfDir, OptionHiveConfDir, OptionHiveVersion}
}

// parseOptions checks a hive catalog's options and reads its hive-site.xml.
func parseOptions(name string, options map[string]string) (*config, error) {
	var unknown []string
	for k := range options {
		if !slices.Contains(supportedOptions(), k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, catalogs.ClassErrorf(catalogs.ErrInvalidOption, "ValidationException",
			"Unsupported options found for catalog '%s' of type '%s'.\n\nUnsupported options:\n\n%s\n\nSupported options:\n\n%s",
			name, Type, strings.Join(unknown, "\n"), strings.Join(supportedOptions(), "\n"))
	}
	cfg := &config{defaultDB: catalogs.DefaultDatabaseOf(options), site: map[string]string{}}
	if dir := options[OptionHadoopConfDir]; dir != "" {
		// Flink requires one of Hadoop's site files there; eddy reads
		// local files only and needs none of them.
		found := false
		for _, f := range []string{"core-site.xml", "hdfs-site.xml", "yarn-site.xml", "mapred-site.xml"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
				found = true
			}
		}
		if !found {
			return nil, catalogs.Errorf(catalogs.ErrInvalidOption, "Failed to load the hadoop conf from specified path:%s", dir)
		}
	}
	dir := options[OptionHiveConfDir]
	if dir == "" {
		dir = os.Getenv("HIVE_CONF_DIR")
	}
	if dir != "" {
		site := filepath.Join(dir, "hive-site.xml")
		props, err := readSite(site)
		if err != nil {
			return nil, catalogs.Errorf(catalogs.ErrInvalidOption, "Failed to load hive-site.xml from specified path:%s: %v", site, err)
		}
		cfg.site = props
	}
	cfg.uris = strings.TrimSpace(cfg.site[confMetastoreURIs])
	if cfg.uris == "" {
		return nil, catalogs.Errorf(catalogs.ErrInvalidOption,
			"Embedded metastore is not allowed. Make sure you have set a valid value for %s", confMetastoreURIs)
	}
	cfg.warehouse = cfg.site[confWarehouse]
	if cfg.warehouse == "" {
		cfg.warehouse = cfg.site[confWarehouseNew]
	}
	return cfg, nil
}

// readSite reads the properties of a Hadoop-style configuration file.
func readSite(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Properties []struct {
			Name  string `xml:"name"`
			Value string `xml:"value"`
		} `xml:"property"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not a configuration file: %v", err)
	}
	out := map[string]string{}
	for _, p := range doc.Properties {
		out[strings.TrimSpace(p.Name)] = strings.TrimSpace(p.Value)
	}
	return out, nil
}
