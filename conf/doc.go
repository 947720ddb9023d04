// Package conf holds eddy's configuration: the YAML configuration file
// (config.go: store, catalogs, execution defaults and SET keys, with
// errors that name the file and line) and the registry of session options
// (options.go: keys, types, defaults, validation).
//
// conf only parses: where the file lives (XDG paths, flags, environment)
// is decided by main. It imports only the standard library and
// gopkg.in/yaml.v3, so every other package may import it.
package conf
