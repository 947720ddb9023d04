package memory

import (
	"context"
	"maps"
	"slices"
	"sync"

	"eddy/catalogs"
)

// Store is a CatalogStore that keeps catalog definitions in memory
// (Flink's GenericInMemoryCatalogStore), for sessions without a store file.
type Store struct {
	mu    sync.Mutex
	descs map[string]catalogs.CatalogDescriptor
}

var _ catalogs.CatalogStore = (*Store)(nil)

// NewStore returns an empty store.
func NewStore() *Store { return &Store{descs: map[string]catalogs.CatalogDescriptor{}} }

// StoreCatalog saves a new definition.
func (s *Store) StoreCatalog(_ context.Context, d catalogs.CatalogDescriptor) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.descs[d.Name]; ok {
		return catalogs.Errorf(catalogs.ErrCatalogAlreadyExist, "Catalog %s already exists in the catalog store.", d.Name)
	}
	s.descs[d.Name] = d.Copy()
	return nil
}

// ReplaceCatalog overwrites an existing definition.
func (s *Store) ReplaceCatalog(_ context.Context, d catalogs.CatalogDescriptor) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.descs[d.Name]; !ok {
		return catalogs.Errorf(catalogs.ErrCatalogNotExist, "Catalog %s does not exist in the catalog store.", d.Name)
	}
	s.descs[d.Name] = d.Copy()
	return nil
}

// RemoveCatalog deletes a definition.
func (s *Store) RemoveCatalog(_ context.Context, name string, ignoreIfNotExists bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.descs[name]; !ok && !ignoreIfNotExists {
		return catalogs.Errorf(catalogs.ErrCatalogNotExist, "Catalog %s does not exist in the catalog store.", name)
	}
	delete(s.descs, name)
	return nil
}

// GetCatalog returns a definition.
func (s *Store) GetCatalog(_ context.Context, name string) (catalogs.CatalogDescriptor, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.descs[name]
	return d.Copy(), ok, nil
}

// ListCatalogs returns the stored names, sorted.
func (s *Store) ListCatalogs(context.Context) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Sorted(maps.Keys(s.descs)), nil
}

// Contains reports whether a definition exists.
func (s *Store) Contains(_ context.Context, name string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.descs[name]
	return ok, nil
}
