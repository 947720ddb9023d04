package qtest_test

import (
	"testing"

	"eddy/repl/qtest"
)

func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// Java package prefixes of exception classes opening a line.
		{"[ERROR] Could not execute SQL statement. Reason:\norg.apache.flink.table.api.ValidationException: x\n",
			"[ERROR] Could not execute SQL statement. Reason:\nValidationException: x\n"},
		{"org.apache.flink.table.catalog.exceptions.CatalogException: A catalog with name [c] does not exist.\n",
			"CatalogException: A catalog with name [c] does not exist.\n"},
		{"java.lang.IllegalArgumentException: testing elements\n", "IllegalArgumentException: testing elements\n"},
		{"org.apache.flink.sql.parser.impl.ParseException: Encountered \"END\" at line 0, column 1.\nWas expecting one of:\n",
			"ParseException: Encountered \"END\" at line 0, column 1.\nWas expecting one of:\n"},
		// Not a class name opening a line, or not an exception: unchanged.
		{"IllegalArgumentException: No enum constant org.apache.flink.table.api.SqlDialect.UNKNOWN\n",
			"IllegalArgumentException: No enum constant org.apache.flink.table.api.SqlDialect.UNKNOWN\n"},
		{"org.apache.flink.table.api.SqlDialect: x\n", "org.apache.flink.table.api.SqlDialect: x\n"},
		{"| org.apache.flink.table.api.ValidationException: x |\n", "| org.apache.flink.table.api.ValidationException: x |\n"},
		{"  org.apache.flink.table.api.ValidationException: x\n", "  org.apache.flink.table.api.ValidationException: x\n"},
		// succeed. and succeeded. are the same acknowledgement.
		{"[INFO] Execute statement succeed.\n", "[INFO] Execute statement succeeded.\n"},
		{"[INFO] Execute statement succeeded.\n", "[INFO] Execute statement succeeded.\n"},
		{"| [INFO] Execute statement succeed. |\n", "| [INFO] Execute statement succeed. |\n"},
		// Job ID lines are cut to "Job ID:".
		{"[INFO] SQL update statement has been successfully submitted to the cluster:\nJob ID: 6b1af540c0c0bb3fcfcad50ac037c862\n",
			"[INFO] SQL update statement has been successfully submitted to the cluster:\nJob ID:\n"},
		{"Job ID:\n", "Job ID:\n"},
		{"| Job ID: x |\n", "| Job ID: x |\n"},
		// Nothing else changes: spacing, case, line ends.
		{"ValidationException:  x  \n\n", "ValidationException:  x  \n\n"},
		{"[info] execute statement succeed.\n", "[info] execute statement succeed.\n"},
	} {
		if got := qtest.Normalize(c.in); got != c.want {
			t.Errorf("Normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
