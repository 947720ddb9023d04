package catalogtest

import (
	"context"
	"testing"

	"eddy/catalogs"
	"eddy/engine/types"
)

// SampleModel returns a model with input and output columns (one NOT NULL,
// one with a comment), options and a comment.
func SampleModel() *catalogs.CatalogModel {
	return &catalogs.CatalogModel{
		Input: []catalogs.Column{
			{Name: "text", Type: types.NewString()},
			{Name: "n", Type: types.New(types.Int).WithNullable(false), Comment: "count"},
		},
		Output:  []catalogs.Column{{Name: "label", Type: types.NewString()}, {Name: "score", Type: types.New(types.Double)}},
		Options: map[string]string{"provider": "openai", "task": "classification"},
		Comment: "sentiment",
	}
}

// modelScenarios exercise the model methods of a catalog that keeps
// models; RunModels runs them.
var modelScenarios = []struct {
	name string
	run  func(t *testing.T, ctx context.Context, c catalogs.ModelCatalog)
}{
	{"create, get, alter, rename and drop models", func(t *testing.T, ctx context.Context, c catalogs.ModelCatalog) {
		names, err := c.ListModels(ctx, "default")
		must(t, err)
		equal(t, len(names), 0)
		in := SampleModel()
		must(t, c.CreateModel(ctx, p("default", "m"), in, false))
		in.Options["provider"] = "changed by caller"
		in.Input[0].Name = "changed by caller"
		got, err := c.GetModel(ctx, p("default", "m"))
		must(t, err)
		equal(t, got, SampleModel())
		ok, err := c.ModelExists(ctx, p("default", "m"))
		must(t, err)
		equal(t, ok, true)

		mustKind(t, c.CreateModel(ctx, p("default", "m"), SampleModel(), false), catalogs.ErrModelAlreadyExist,
			"Model default.m already exists in Catalog cat.")
		must(t, c.CreateModel(ctx, p("default", "m"), &catalogs.CatalogModel{Comment: "ignored"}, true))
		mustKind(t, c.CreateModel(ctx, p("nodb", "m"), SampleModel(), false), catalogs.ErrDatabaseNotExist,
			"Database nodb does not exist in Catalog cat.")
		_, err = c.GetModel(ctx, p("nodb", "m"))
		mustKind(t, err, catalogs.ErrModelNotExist, "Model '`cat`.`nodb`.`m`' does not exist.")
		_, err = c.ListModels(ctx, "nodb")
		mustKind(t, err, catalogs.ErrDatabaseNotExist, "Database nodb does not exist in Catalog cat.")

		// A model and a table may share a name.
		must(t, c.CreateTable(ctx, p("default", "m"), SampleTable(), false))
		tables, err := c.ListTables(ctx, "default")
		must(t, err)
		equal(t, tables, []string{"m"})

		changed := SampleModel()
		changed.Options = map[string]string{"provider": "local"}
		changed.Comment = ""
		must(t, c.AlterModel(ctx, p("default", "m"), changed, false))
		got, _ = c.GetModel(ctx, p("default", "m"))
		equal(t, got, changed)
		mustKind(t, c.AlterModel(ctx, p("default", "nope"), changed, false), catalogs.ErrModelNotExist,
			"Model '`cat`.`default`.`nope`' does not exist.")
		must(t, c.AlterModel(ctx, p("default", "nope"), changed, true))

		must(t, c.CreateModel(ctx, p("default", "other"), SampleModel(), false))
		mustKind(t, c.RenameModel(ctx, p("default", "m"), "other", false), catalogs.ErrModelAlreadyExist,
			"Model default.other already exists in Catalog cat.")
		must(t, c.RenameModel(ctx, p("default", "m"), "m2", false))
		names, _ = c.ListModels(ctx, "default")
		equal(t, names, []string{"m2", "other"})
		got, _ = c.GetModel(ctx, p("default", "m2"))
		equal(t, got, changed)
		mustKind(t, c.RenameModel(ctx, p("default", "m"), "m3", false), catalogs.ErrModelNotExist, "")
		must(t, c.RenameModel(ctx, p("default", "m"), "m3", true))

		must(t, c.DropModel(ctx, p("default", "m2"), false))
		mustKind(t, c.DropModel(ctx, p("default", "m2"), false), catalogs.ErrModelNotExist,
			"Model '`cat`.`default`.`m2`' does not exist.")
		must(t, c.DropModel(ctx, p("default", "m2"), true))
		names, _ = c.ListModels(ctx, "default")
		equal(t, names, []string{"other"})
		ok, _ = c.ModelExists(ctx, p("default", "m2"))
		equal(t, ok, false)
	}},
	{"models go with their database", func(t *testing.T, ctx context.Context, c catalogs.ModelCatalog) {
		must(t, c.CreateDatabase(ctx, "ml", &catalogs.CatalogDatabase{}, false))
		must(t, c.CreateModel(ctx, p("ml", "m"), SampleModel(), false))
		// Models do not keep a database from being dropped (Flink's
		// GenericInMemoryCatalog counts tables and functions only).
		must(t, c.DropDatabase(ctx, "ml", false, false))
		must(t, c.CreateDatabase(ctx, "ml", &catalogs.CatalogDatabase{}, false))
		names, err := c.ListModels(ctx, "ml")
		must(t, err)
		equal(t, len(names), 0)
	}},
	{"hostile model names and options", func(t *testing.T, ctx context.Context, c catalogs.ModelCatalog) {
		for _, n := range HostileNames {
			m := SampleModel()
			m.Options[n] = n
			m.Comment = n
			m.Input[0].Name = n
			must(t, c.CreateModel(ctx, p("default", n), m, false))
			got, err := c.GetModel(ctx, p("default", n))
			must(t, err)
			equal(t, got, m)
		}
		names, err := c.ListModels(ctx, "default")
		must(t, err)
		equal(t, len(names), len(HostileNames))
	}},
}

// RunModels runs the model scenarios against a fresh catalog from open,
// which must keep models.
func RunModels(t *testing.T, open Open) {
	for _, s := range modelScenarios {
		t.Run(s.name, func(t *testing.T) {
			c, ok := open(t).(catalogs.ModelCatalog)
			if !ok {
				t.Fatal("the catalog keeps no models")
			}
			s.run(t, context.Background(), c)
		})
	}
}
