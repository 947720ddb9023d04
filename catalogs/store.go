package catalogs

import (
	"context"
	"maps"
	"strings"
)

// CatalogDescriptor is a catalog definition: its name, the options given
// to CREATE CATALOG (including 'type') and its comment (Flink's
// CatalogDescriptor).
type CatalogDescriptor struct {
	Name    string
	Options map[string]string
	Comment string
}

// Type returns the 'type' option.
func (d CatalogDescriptor) Type() string { return d.Options[OptionType] }

// Copy returns a deep copy.
func (d CatalogDescriptor) Copy() CatalogDescriptor {
	return CatalogDescriptor{Name: d.Name, Options: maps.Clone(d.Options), Comment: d.Comment}
}

// CatalogStore keeps the definitions of catalogs made with CREATE CATALOG
// so that they come back when a new session starts (Flink's CatalogStore).
type CatalogStore interface {
	// StoreCatalog saves a new definition; an existing name is
	// ErrCatalogAlreadyExist.
	StoreCatalog(ctx context.Context, desc CatalogDescriptor) error
	// ReplaceCatalog overwrites an existing definition (ALTER CATALOG).
	ReplaceCatalog(ctx context.Context, desc CatalogDescriptor) error
	// RemoveCatalog deletes a definition.
	RemoveCatalog(ctx context.Context, name string, ignoreIfNotExists bool) error
	// GetCatalog returns a definition; ok is false when there is none.
	GetCatalog(ctx context.Context, name string) (desc CatalogDescriptor, ok bool, err error)
	// ListCatalogs returns the stored names, sorted.
	ListCatalogs(ctx context.Context) ([]string, error)
	// Contains reports whether a definition exists.
	Contains(ctx context.Context, name string) (bool, error)
}

// IsSensitiveOption reports whether an option's value must be hidden in
// SHOW CREATE output (printed as '****'): its key contains password,
// secret or token, in any case.
func IsSensitiveOption(key string) bool {
	k := strings.ToLower(key)
	return strings.Contains(k, "password") || strings.Contains(k, "secret") || strings.Contains(k, "token")
}
