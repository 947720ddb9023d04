package main

import (
	"database/sql"

	_ "github.com/duckdb/duckdb-go/v2"
)

func main() { db, _ := sql.Open("duckdb", ""); db.Close() }
