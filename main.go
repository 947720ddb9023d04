// Command eddy is a Flink-SQL-compatible SQL shell: it runs Flink SQL on an
// embedded engine and keeps catalogs in a SQLite store. main only wires:
// flags and configuration, the store and the catalogs, the session, the
// shell.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"golang.org/x/term"

	"eddy/catalogs"
	"eddy/catalogs/arctic"
	"eddy/catalogs/examples"
	"eddy/catalogs/hive"
	"eddy/catalogs/memory"
	"eddy/catalogs/sqlite"
	"eddy/conf"
	"eddy/engine"
	"eddy/engine/connectors/jdbc"
	"eddy/engine/connectors/kafka"
	"eddy/engine/gateway"
	"eddy/engine/gcpace"
	"eddy/repl"
	"eddy/repl/render"
)

// version is the release shown by --version and the banner.
const version = "0.1.0"

// heapFloor is the heap below which the collector waits (engine/gcpace):
// a query that decodes a file or a table into short-lived batches is
// collected every 32 MB of allocation instead of every 4 MB.
const heapFloor = 32 << 20

// Exit statuses: 1 for a failed statement, 2 for a usage error.
const (
	exitFailure = 1
	exitUsage   = 2
)

func main() {
	code, sig := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if sig != nil {
		endBySignal(sig)
	}
	os.Exit(code)
}

// endBySignal ends the process by sig, with the signal's own exit status:
// the shell caught it while it held answers, printed them, and stopped.
func endBySignal(sig os.Signal) {
	s, ok := sig.(syscall.Signal)
	if !ok {
		return
	}
	signal.Reset(s)
	_ = syscall.Kill(os.Getpid(), s)
	// The signal is delivered asynchronously; nothing runs meanwhile.
	for {
		time.Sleep(time.Second)
	}
}

// options are the parsed command line.
type options struct {
	file      string   // -f
	inits     []string // -i, in order
	exec      string   // -e
	hasExec   bool
	config    string // --config
	store     string // --store
	defines   []string
	keepGoing bool
	gateway   string
	output    string // --output: sql-client.display.output-format
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func parseFlags(args []string, stderr io.Writer) (*options, int, bool) {
	o := &options{}
	fs := flag.NewFlagSet("eddy", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var inits, defines listFlag
	fs.StringVar(&o.file, "f", "", "")
	fs.Var(&inits, "i", "")
	fs.Func("e", "", func(s string) error { o.exec, o.hasExec = s, true; return nil })
	fs.StringVar(&o.config, "config", "", "")
	fs.StringVar(&o.store, "store", "", "")
	fs.Var(&defines, "D", "")
	fs.BoolVar(&o.keepGoing, "keep-going", false, "")
	fs.StringVar(&o.gateway, "gateway", "", "")
	fs.StringVar(&o.output, "output", "", "")
	showVersion := fs.Bool("version", false, "")
	help := fs.Bool("help", false, "")
	fs.BoolVar(help, "h", false, "")
	if err := fs.Parse(splitDefines(args)); err != nil {
		render.Problem(stderr, "%v "+render.MsgSeeHelp, err)
		return nil, exitUsage, true
	}
	o.inits, o.defines = inits, defines
	switch {
	case *help:
		fmt.Fprint(os.Stdout, render.Usage)
		return nil, 0, true
	case *showVersion:
		fmt.Fprintln(os.Stdout, render.Version(version))
		return nil, 0, true
	case fs.NArg() > 0:
		render.Problem(stderr, render.MsgUnexpectedArg, fs.Arg(0))
		return nil, exitUsage, true
	case o.file != "" && o.hasExec:
		render.Problem(stderr, render.MsgFileAndExec)
		return nil, exitUsage, true
	case o.output != "" && !render.IsFormat(o.output):
		render.Problem(stderr, render.MsgBadOutput, o.output, strings.Join(render.Formats, ", "))
		return nil, exitUsage, true
	}
	for _, d := range o.defines {
		if k, _, ok := strings.Cut(d, "="); !ok || strings.TrimSpace(k) == "" {
			render.Problem(stderr, render.MsgBadDefine, d)
			return nil, exitUsage, true
		}
	}
	return o, 0, false
}

// splitDefines lets -Dkey=value stand for -D key=value, as Java users type it.
func splitDefines(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if strings.HasPrefix(a, "-D") && len(a) > 2 && a[2] != '=' {
			out = append(out, "-D", a[2:])
			continue
		}
		out = append(out, a)
	}
	return out
}

// run runs eddy and returns its exit status, and the signal that stopped
// the shell (main then ends the process by it), or nil.
func run(args []string, stdin *os.File, stdout, stderr io.Writer) (code int, sig os.Signal) {
	o, code, done := parseFlags(args, stderr)
	if done {
		return code, nil
	}
	// The collector's pace: a heap floor unless GOGC says otherwise.
	if os.Getenv("GOGC") == "" {
		pacer := gcpace.New(heapFloor)
		pacer.Start()
		defer pacer.Stop()
	}
	// EDDY_CPUPROFILE=FILE writes a CPU profile of the whole run, for the
	// performance suite and anyone chasing a slow statement.
	if path := os.Getenv("EDDY_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			render.Problem(stderr, "EDDY_CPUPROFILE: %v", err)
			return exitUsage, nil
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			render.Problem(stderr, "EDDY_CPUPROFILE: %v", err)
			return exitUsage, nil
		}
		defer pprof.StopCPUProfile()
	}
	// Read every input file first: an unreadable one is a usage error
	// before anything runs.
	inits := make([]string, len(o.inits))
	for i, path := range o.inits {
		data, err := repl.ReadScript(path, repl.MaxScriptBytes)
		if err != nil {
			render.Problem(stderr, "-i: %v", err)
			return exitUsage, nil
		}
		inits[i] = data
	}
	var in io.Reader = stdin
	if o.file != "" {
		f, err := os.Open(o.file)
		if err == nil {
			if fi, serr := f.Stat(); serr == nil && fi.IsDir() {
				f.Close()
				err = fmt.Errorf("open %s: is a directory", o.file)
			}
		}
		if err != nil {
			render.Problem(stderr, "-f: %v", err)
			return exitUsage, nil
		}
		defer f.Close()
		in = f
	}
	cfg, err := loadConfig(o.config)
	if err != nil {
		render.Problem(stderr, "%v", err)
		return exitUsage, nil
	}
	ctx := context.Background()
	options := defines(o.defines)
	if o.output != "" {
		options[conf.OutputFormat] = strings.ToLower(o.output)
	}
	endpoint := o.gateway
	if endpoint == "" && cfg != nil {
		endpoint = cfg.Gateway
	}
	var sess repl.Session
	var closeSession func()
	leftOut := map[string]string{}
	if endpoint != "" {
		sess, closeSession, err = openRemote(ctx, cfg, endpoint, options, stderr)
	} else {
		sess, closeSession, err = openSession(ctx, cfg, storePath(o.store, cfg), options, stderr, leftOut)
	}
	if err != nil {
		render.Problem(stderr, "%v", err)
		return exitFailure, nil
	}
	defer closeSession()

	interactive := o.file == "" && !o.hasExec && term.IsTerminal(int(stdin.Fd()))
	sh := repl.New(sess, repl.Config{
		In: in, Out: stdout, Err: stderr,
		Interactive: interactive,
		KeepGoing:   o.keepGoing,
		HistoryFile: historyPath(),
		Color:       interactive && wantColor(stdout),
		Version:     version,
		Remote:      endpoint,
		Progress:    progressWriter(interactive, stderr),
		InputName:   inputName(o.file),
		LeftOut:     leftOut,
	})
	defer func() {
		// The shell recovers panics of single statements; this is the last
		// guard, so that no Go panic text reaches the user.
		if r := recover(); r != nil {
			render.Error(stderr, render.Internal(r, debug.Stack()), render.Options{})
			code = exitFailure
		}
	}()
	for i, text := range inits {
		if c := sh.RunFile(ctx, o.inits[i], text); c != 0 || sh.Exited() || sh.Signal() != nil {
			return c, sh.Signal()
		}
	}
	if o.hasExec {
		defer sh.CloseJobs()
		return sh.RunScript(ctx, o.exec), sh.Signal()
	}
	return sh.Run(ctx), sh.Signal()
}

// inputName names the shell's input in the location of a script's error:
// the -f file, else standard input.
func inputName(file string) string {
	if file != "" {
		return file
	}
	return repl.StdinName
}

// defines turns -D key=value flags into session options.
func defines(ds []string) map[string]string {
	m := make(map[string]string, len(ds))
	for _, d := range ds {
		k, v, _ := strings.Cut(d, "=")
		m[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return m
}

// loadConfig reads --config, else $EDDY_CONFIG, else the XDG default when
// that file exists. A file named explicitly must exist.
func loadConfig(flagPath string) (*conf.Config, error) {
	path := flagPath
	if path == "" {
		path = os.Getenv("EDDY_CONFIG")
	}
	if path == "" {
		path = filepath.Join(xdgDir("XDG_CONFIG_HOME", ".config"), "eddy", "config.yaml")
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
	}
	return conf.Load(path)
}

// storePath picks the store: --store, $EDDY_STORE, the configuration's
// store (relative to the configuration file), the XDG data directory.
func storePath(flagPath string, cfg *conf.Config) string {
	switch {
	case flagPath != "":
		return flagPath
	case os.Getenv("EDDY_STORE") != "":
		return os.Getenv("EDDY_STORE")
	case cfg != nil && cfg.Store != "":
		if filepath.IsAbs(cfg.Store) || cfg.File == "" {
			return cfg.Store
		}
		return filepath.Join(filepath.Dir(cfg.File), cfg.Store)
	}
	return filepath.Join(xdgDir("XDG_DATA_HOME", filepath.Join(".local", "share")), "eddy", "eddy.db")
}

// historyPath is $XDG_STATE_HOME/eddy/history.
func historyPath() string {
	return filepath.Join(xdgDir("XDG_STATE_HOME", filepath.Join(".local", "state")), "eddy", "history")
}

// xdgDir returns $env, or ~/fallback when it is unset or not absolute.
func xdgDir(env, fallback string) string {
	if d := os.Getenv(env); filepath.IsAbs(d) {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		home = "."
	}
	return filepath.Join(home, fallback)
}

// wantColor reports whether answers may be coloured: a terminal that is not
// dumb, and no NO_COLOR.
func wantColor(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return false
	}
	if _, set := os.LookupEnv("NO_COLOR"); set {
		return false
	}
	return os.Getenv("TERM") != "dumb"
}

// progressWriter returns where the live status line of long statements
// goes: standard error when the session is interactive and standard error
// is a terminal; nil (no status line) otherwise.
func progressWriter(interactive bool, stderr io.Writer) io.Writer {
	f, ok := stderr.(*os.File)
	if !interactive || !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return stderr
}

// Warnings about configuration entries the shell starts without.
const (
	msgCatalogSkipped = "%s:%d: warning: catalog %q is left out: %v"
	msgCurrentSkipped = "%s: warning: execution: %v The shell starts in %s."
)

// Names of the catalog every session starts with (Flink's defaults).
const (
	defaultCatalog  = "default_catalog"
	defaultDatabase = "default_database"
)

// openSession opens the store, registers default_catalog (persistent, in
// the store) and the configuration's catalogs, makes the configuration's
// catalog and database current and returns the session. Options apply in
// the order built-in defaults < configuration < -D flags (SET comes later).
// Catalogs of the configuration that could not be made are warned of on
// stderr and recorded in leftOut (name to "FILE:LINE: reason").
func openSession(ctx context.Context, cfg *conf.Config, storePath string, defines map[string]string, stderr io.Writer, leftOut map[string]string) (repl.Session, func(), error) {
	store, err := sqlite.OpenStore(storePath)
	if err != nil {
		return nil, nil, fmt.Errorf("store %s: %w", storePath, err)
	}
	options := sessionOptions(cfg, defines)
	openTimeout, err := catalogOpenTimeout(options)
	if err != nil {
		store.Close()
		return nil, nil, err
	}
	factories := map[string]catalogs.Factory{
		memory.Type:       memory.Factory{},
		sqlite.Type:       store,
		kafka.CatalogType: kafka.NewCatalogFactory(),
		jdbc.CatalogType:  jdbc.CatalogFactory{},
		hive.Type:         hive.Factory{},
		arctic.Type:       arctic.Factory{},
	}
	addIceberg(factories)
	mgr := catalogs.NewManager(factories, store, catalogs.WithOpenTimeout(openTimeout))
	closeAll := func() {
		mgr.Close()
		store.Close()
	}
	fail := func(err error) (repl.Session, func(), error) {
		closeAll()
		return nil, nil, err
	}
	def := catalogs.CatalogDescriptor{Name: defaultCatalog, Options: map[string]string{
		catalogs.OptionType: sqlite.Type, catalogs.OptionDefaultDatabase: defaultDatabase,
	}}
	if err := mgr.RegisterCatalog(ctx, def, nil, catalogs.OriginBuiltIn); err != nil {
		return fail(err)
	}
	if cfg == nil || !cfg.NoExamplesCatalog {
		ex := catalogs.CatalogDescriptor{Name: examples.Name, Options: map[string]string{catalogs.OptionType: examples.Type}}
		if err := mgr.RegisterCatalog(ctx, ex, examples.New(examples.Name), catalogs.OriginBuiltIn); err != nil {
			return fail(err)
		}
	}
	current, currentDB := defaultCatalog, ""
	if cfg != nil {
		// The configuration never stops the shell: a catalog that cannot
		// be made (an unknown type or option, a name a CREATE CATALOG of
		// the store already holds, which wins) is a warning naming its
		// line, and the shell starts without it.
		for _, c := range cfg.Catalogs {
			desc := catalogs.CatalogDescriptor{Name: c.Name, Options: c.AllOptions()}
			if err := mgr.RegisterCatalog(ctx, desc, nil, catalogs.OriginConfig); err != nil {
				render.Problem(stderr, msgCatalogSkipped, cfg.File, c.Line, c.Name, err)
				if leftOut != nil {
					leftOut[c.Name] = fmt.Sprintf("%s:%d: %v", cfg.File, c.Line, err)
				}
			}
		}
		if cfg.Execution.CurrentCatalog != "" {
			current = cfg.Execution.CurrentCatalog
		}
		currentDB = cfg.Execution.CurrentDatabase
	}
	if err := mgr.SetCurrentCatalog(ctx, current); err != nil {
		if current == defaultCatalog {
			return fail(err)
		}
		render.Problem(stderr, msgCurrentSkipped, cfg.File, err, defaultCatalog+"."+defaultDatabase)
		current, currentDB = defaultCatalog, ""
		if err := mgr.SetCurrentCatalog(ctx, current); err != nil {
			return fail(err)
		}
	}
	if currentDB != "" {
		if err := mgr.SetCurrentDatabase(ctx, currentDB); err != nil {
			render.Problem(stderr, msgCurrentSkipped, cfg.File, err, "its default database")
		}
	}
	sess, err := engine.NewSession(engine.SessionConfig{Catalogs: mgr, Options: options})
	if err != nil {
		return fail(err)
	}
	sess.SetPrintOutput(os.Stdout, os.Stderr)
	// Closing the session ends its jobs (waiting for bounded ones,
	// cancelling unbounded ones) before the catalogs and the store close.
	return repl.FromEngine(sess), func() {
		sess.Close()
		store.Close()
	}, nil
}

// catalogOpenTimeout returns eddy.catalog.open-timeout from the session's
// base options, 0 (the catalog layer's default) when it is not set.
func catalogOpenTimeout(options map[string]string) (time.Duration, error) {
	v, ok := options[conf.CatalogOpenTimeout]
	if !ok {
		return 0, nil
	}
	if _, err := conf.Options().Validate(conf.CatalogOpenTimeout, v); err != nil {
		return 0, err
	}
	return conf.ParseDuration(v)
}

// sessionOptions are the session's base options: the configuration file's
// settings and execution modes, then the -D flags.
func sessionOptions(cfg *conf.Config, defines map[string]string) map[string]string {
	options := map[string]string{}
	if cfg != nil {
		maps.Copy(options, cfg.Settings())
		if cfg.Execution.RuntimeMode != "" {
			options[conf.RuntimeMode] = cfg.Execution.RuntimeMode
		}
		if cfg.Execution.ResultMode != "" {
			options[conf.ResultMode] = cfg.Execution.ResultMode
		}
	}
	maps.Copy(options, defines)
	return options
}

// remoteSession runs the shell against a Flink SQL Gateway; display
// options come from the remote session's configuration.
type remoteSession struct{ *gateway.Session }

func (s remoteSession) DisplayOptions() render.Options {
	return repl.OptionsFromConfig(func(key string) (string, bool) {
		v := s.Option(key)
		return v, v != ""
	})
}

// openRemote opens a session on the Flink SQL Gateway at endpoint with the
// configuration's settings and -D flags as session properties, and makes
// the configuration's catalog and database current there. Catalogs of the
// configuration file are the local engine's and are not sent.
func openRemote(ctx context.Context, cfg *conf.Config, endpoint string, defines map[string]string, stderr io.Writer) (repl.Session, func(), error) {
	headers, bad := gateway.ParseHeaders(os.Getenv("FLINK_REST_CLIENT_HEADERS"))
	for _, line := range bad {
		render.Problem(stderr, render.MsgBadHeader, line)
	}
	s, err := gateway.Open(ctx, gateway.Config{
		ClientConfig: gateway.ClientConfig{Endpoint: endpoint, Headers: headers},
		Properties:   sessionOptions(cfg, defines),
	})
	if err != nil {
		return nil, nil, err
	}
	closeAll := func() { s.Close() }
	if cfg != nil && cfg.Execution.CurrentCatalog != "" {
		if _, err := s.Execute(ctx, "USE CATALOG "+quoteName(cfg.Execution.CurrentCatalog)); err != nil {
			closeAll()
			return nil, nil, err
		}
	}
	if cfg != nil && cfg.Execution.CurrentDatabase != "" {
		if _, err := s.Execute(ctx, "USE "+quoteName(cfg.Execution.CurrentDatabase)); err != nil {
			closeAll()
			return nil, nil, err
		}
	}
	return remoteSession{s}, closeAll, nil
}

// quoteName back-quotes a name for a statement.
func quoteName(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }
