package parser

import (
	"fmt"
	"strings"
	"testing"
)

// benchScript builds a mixed DDL/query script of about size bytes.
func benchScript(size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `CREATE TABLE orders_%d (
  order_id BIGINT NOT NULL,
  customer STRING COMMENT 'who ordered',
  amount DECIMAL(10, 2),
  tags ARRAY<STRING>,
  attrs MAP<STRING, INT>,
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,
  PRIMARY KEY (order_id) NOT ENFORCED
) WITH (
  'connector' = 'datagen',
  'rows-per-second' = '%d'
);
SELECT o.customer, SUM(o.amount) AS total, COUNT(DISTINCT o.order_id) AS n,
       CASE WHEN SUM(o.amount) > 100 THEN 'big' ELSE 'small' END AS size
FROM orders_%d /*+ OPTIONS('scan.startup.mode' = 'earliest-offset') */ AS o
LEFT JOIN customers FOR SYSTEM_TIME AS OF o.ts AS c ON o.customer = c.name
WHERE o.amount BETWEEN 1 AND 1000 AND o.customer LIKE 'a%%' AND o.order_id IN (1, 2, 3)
GROUP BY o.customer
HAVING COUNT(*) > 1
ORDER BY total DESC
LIMIT 10;
SELECT window_start, window_end, SUM(amount) FROM TABLE(
  TUMBLE(TABLE orders_%d, DESCRIPTOR(ts), INTERVAL '10' MINUTES))
GROUP BY window_start, window_end;
INSERT INTO sink_%d SELECT customer, CAST(amount AS DOUBLE), ROW_NUMBER() OVER (PARTITION BY customer ORDER BY ts) FROM orders_%d;
`, i, i, i, i, i, i)
	}
	return b.String()
}

// BenchmarkParseScript splits a ~1 MB mixed script and parses every
// statement; the reported MB/s is over the script's bytes.
func BenchmarkParseScript(b *testing.B) {
	script := benchScript(1 << 20)
	pieces, _ := Split(script)
	for _, pc := range pieces {
		if _, err := Parse(pc.Text); err != nil {
			b.Fatalf("%v\n%s", err, pc.Text)
		}
	}
	b.SetBytes(int64(len(script)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pieces, _ := Split(script)
		for _, pc := range pieces {
			if _, err := Parse(pc.Text); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkSplit measures Split alone over the ~1 MB script.
func BenchmarkSplit(b *testing.B) {
	script := benchScript(1 << 20)
	b.SetBytes(int64(len(script)))
	b.ReportAllocs()
	for b.Loop() {
		Split(script)
	}
}

// BenchmarkTokenize measures the parser's lexing of every statement of
// the ~1 MB script, without parsing.
func BenchmarkTokenize(b *testing.B) {
	script := benchScript(1 << 20)
	pieces, _ := Split(script)
	b.SetBytes(int64(len(script)))
	b.ReportAllocs()
	p := &Parser{}
	for b.Loop() {
		for _, pc := range pieces {
			if err := p.tokenize(pc.Text); err != nil {
				b.Fatal(err)
			}
		}
	}
}
