// Package schema resolves the stored definition of a catalog table or view
// into the columns statements see, as Flink's DefaultSchemaResolver does:
// computed columns and watermark expressions are validated and typed, the
// rowtime column of a watermark is marked *ROWTIME*, primary-key columns
// are NOT NULL.
//
// Query validation reads tables through it (Resolver.OutputColumns as
// validate.Analyzer's TableColumns), CREATE and ALTER TABLE check their
// expressions with it, and DESCRIBE prints its columns. It knows nothing of
// sessions or statements other than the expressions it is given.
package schema
