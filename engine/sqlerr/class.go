package sqlerr

// Flink's exception classes, in the short form eddy prints them (the
// Flink SQL client prints the fully qualified Java name; the .q runner
// strips the package before comparing).
const (
	// ValidationException is a statement that cannot be validated: an
	// unknown object, a type mismatch, a DDL rule broken.
	ValidationException = "ValidationException"
	// TableException is Flink's generic table-API failure, and what an
	// error that knows no class of its own becomes.
	TableException = "TableException"
	// SqlExecutionException is a failure of the SQL client or gateway
	// itself rather than of the statement's semantics.
	SqlExecutionException = "SqlExecutionException"
	// SqlValidateException is a rule checked while converting a DDL node
	// (Flink's SqlNode validation, before the catalog is consulted).
	SqlValidateException = "SqlValidateException"
	// SqlValidatorException is Calcite's validator error.
	SqlValidatorException = "SqlValidatorException"
	// SqlParserException is a statement that does not parse.
	SqlParserException = "SqlParserException"
	// CatalogException is a catalog operation that failed.
	CatalogException = "CatalogException"
	// TableAlreadyExistException is a table or view created twice.
	TableAlreadyExistException = "TableAlreadyExistException"
	// TableNotExistException is a table or view that does not exist.
	TableNotExistException = "TableNotExistException"
	// IllegalArgumentException is a bad argument, as Java reports it.
	IllegalArgumentException = "IllegalArgumentException"
	// IllegalStateException is an operation at the wrong time.
	IllegalStateException = "IllegalStateException"
	// NumberFormatException is text that does not parse as a number.
	NumberFormatException = "NumberFormatException"
	// CodeGenException is a failure of Flink's code generation; eddy uses
	// it where Flink fails there too.
	CodeGenException = "CodeGenException"
	// EnforcerException is a NULL written into a NOT NULL column of a
	// sink (the query's result included), Flink's not-null enforcer.
	EnforcerException = "EnforcerException"
	// FlinkJobNotFoundException is a job id the cluster does not know.
	FlinkJobNotFoundException = "FlinkJobNotFoundException"
	// RestHandlerException is an error answer of Flink's REST endpoint.
	RestHandlerException = "RestHandlerException"
	// UnsupportedOperationException is an operation a catalog does not
	// implement (Java's exception, as Flink's Catalog interface throws it).
	UnsupportedOperationException = "UnsupportedOperationException"
	// InternalError is a bug of eddy: a panic turned into an error.
	InternalError = "InternalError"
)
