package catalogs_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/engine/types"
)

// slowCatalog is an in-memory catalog whose GetTable sleeps, as a remote
// catalog waiting on its metastore does. The sleep ends after delay or
// when release is closed, whichever comes first.
type slowCatalog struct {
	*memory.Catalog
	delay   time.Duration
	entered chan struct{} // receives once GetTable has started sleeping
	release chan struct{}
}

func (c *slowCatalog) GetTable(ctx context.Context, path catalogs.ObjectPath) (catalogs.BaseTable, error) {
	c.entered <- struct{}{}
	select {
	case <-c.release:
	case <-time.After(c.delay):
	}
	return c.Catalog.GetTable(ctx, path)
}

func newSlowCatalog() *slowCatalog {
	return &slowCatalog{Catalog: memory.New("slow", "db"), delay: 30 * time.Second,
		entered: make(chan struct{}, 1), release: make(chan struct{})}
}

// A catalog call that takes long holds up only the calls that wait for
// it: other goroutines go on using the Manager.
func TestSlowCatalogDoesNotBlockManager(t *testing.T) {
	m := newManager(t)
	slow := newSlowCatalog()
	must(t, m.RegisterCatalog(ctx, inMemory("slow"), slow, catalogs.OriginConfig))
	schema := catalogs.Schema{Columns: []catalogs.Column{{Name: "a", Type: types.New(types.Int)}}}
	must(t, m.CreateTable(ctx, id("slow", "db", "t"), &catalogs.CatalogTable{Schema: schema}, false))

	slowDone := make(chan error, 1)
	go func() {
		_, err := m.GetTable(ctx, id("slow", "db", "t"))
		slowDone <- err
	}()
	<-slow.entered
	var releaseOnce sync.Once
	release := func() { releaseOnce.Do(func() { close(slow.release) }) }
	defer release()

	otherDone := make(chan error, 1)
	go func() {
		otherDone <- func() error {
			if m.CurrentCatalog() != "default_catalog" {
				return errors.New("current catalog changed")
			}
			if _, err := m.Qualify("t"); err != nil {
				return err
			}
			if _, err := m.ListCatalogs(ctx, nil); err != nil {
				return err
			}
			if err := m.CreateTable(ctx, dc("u"), &catalogs.CatalogTable{Schema: schema}, false); err != nil {
				return err
			}
			if _, err := m.GetTable(ctx, dc("u")); err != nil {
				return err
			}
			if err := m.CreateTemporaryTable(ctx, dc("tmp"), &catalogs.CatalogTable{Schema: schema}, false); err != nil {
				return err
			}
			if _, err := m.ListTables(ctx, "default_catalog", "default_database", nil); err != nil {
				return err
			}
			if err := m.CreateCatalog(ctx, inMemory("other"), false); err != nil {
				return err
			}
			return m.Use(ctx, "other", "default")
		}()
	}()
	select {
	case err := <-otherDone:
		must(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("Manager calls of another goroutine waited for a slow catalog call")
	}
	select {
	case err := <-slowDone:
		t.Fatalf("the slow call ended before it was released (err %v)", err)
	default:
	}
	release()
	if err := <-slowDone; err != nil {
		t.Fatal(err)
	}
	if got := m.CurrentCatalog() + "." + m.CurrentDatabase(); got != "other.default" {
		t.Errorf("current = %s, want other.default", got)
	}
}

// sleepyFactory opens catalogs slowly. With obey it gives up when its
// context ends; without, it ignores the context as a careless driver
// would, and the Manager must still return on time.
type sleepyFactory struct {
	obey    bool
	release chan struct{}
	closed  chan struct{} // closed when a late catalog is closed
}

func (f *sleepyFactory) Type() string { return "sleepy" }

func (f *sleepyFactory) Open(ctx context.Context, name string, _ map[string]string) (catalogs.Catalog, error) {
	if f.obey {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	<-f.release
	return &closeSignal{Catalog: memory.New(name, "default"), closed: f.closed}, nil
}

type closeSignal struct {
	*memory.Catalog
	closed chan struct{}
	once   atomic.Bool
}

func (c *closeSignal) Close() error {
	if c.once.CompareAndSwap(false, true) {
		close(c.closed)
	}
	return nil
}

func sleepy(name string) catalogs.CatalogDescriptor {
	return catalogs.CatalogDescriptor{Name: name, Options: map[string]string{"type": "sleepy"}}
}

func TestOpenTimeoutDefault(t *testing.T) {
	if catalogs.DefaultOpenTimeout != 10*time.Second {
		t.Errorf("DefaultOpenTimeout = %s, documented as 10s", catalogs.DefaultOpenTimeout)
	}
	if got := catalogs.NewManager(nil, nil).OpenTimeout(); got != catalogs.DefaultOpenTimeout {
		t.Errorf("OpenTimeout() = %s, want %s", got, catalogs.DefaultOpenTimeout)
	}
	if got := catalogs.NewManager(nil, nil, catalogs.WithOpenTimeout(0)).OpenTimeout(); got != catalogs.DefaultOpenTimeout {
		t.Errorf("WithOpenTimeout(0) gave %s, want the default", got)
	}
}

func TestOpenTimeout(t *testing.T) {
	for _, obey := range []bool{true, false} {
		f := &sleepyFactory{obey: obey, release: make(chan struct{}), closed: make(chan struct{})}
		m := catalogs.NewManager(map[string]catalogs.Factory{"sleepy": f}, memory.NewStore(),
			catalogs.WithOpenTimeout(50*time.Millisecond))
		start := time.Now()
		err := m.CreateCatalog(ctx, sleepy("remote"), false)
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("obey=%v: CreateCatalog took %s", obey, took)
		}
		flinkErr(t, err, catalogs.ErrCatalogOpen, "CatalogException",
			"Could not open catalog 'remote' of type 'sleepy' within 50ms: context deadline exceeded")
		if ok, err := m.CatalogExists(ctx, "remote"); err != nil || ok {
			t.Errorf("obey=%v: a catalog that did not open was kept (%v, %v)", obey, ok, err)
		}
		if !obey {
			close(f.release)
			select {
			case <-f.closed:
			case <-time.After(5 * time.Second):
				t.Error("the catalog opened after the deadline was not closed")
			}
		}
	}
}

func TestOpenCancelled(t *testing.T) {
	f := &sleepyFactory{obey: true}
	m := catalogs.NewManager(map[string]catalogs.Factory{"sleepy": f}, nil)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	err := m.RegisterCatalog(cctx, sleepy("remote"), nil, catalogs.OriginConfig)
	if !errors.Is(err, catalogs.ErrCatalogOpen) || !strings.Contains(err.Error(), "was cancelled") {
		t.Errorf("err = %v, want a cancelled open", err)
	}
}

// panicFactory fails the way a buggy driver does.
type panicFactory struct{}

func (panicFactory) Type() string { return "sleepy" }

func (panicFactory) Open(context.Context, string, map[string]string) (catalogs.Catalog, error) {
	panic("driver bug")
}

// A factory's panic reaches the goroutine that asked for the catalog, where
// the shell recovers a failing statement, not the goroutine that waits for
// the factory.
func TestOpenPanicReachesCaller(t *testing.T) {
	m := catalogs.NewManager(map[string]catalogs.Factory{"sleepy": panicFactory{}}, nil)
	defer func() {
		if r := recover(); r != "driver bug" {
			t.Errorf("recovered %v, want the factory's panic", r)
		}
	}()
	_ = m.RegisterCatalog(ctx, sleepy("remote"), nil, catalogs.OriginConfig)
	t.Error("RegisterCatalog returned past a panicking factory")
}
