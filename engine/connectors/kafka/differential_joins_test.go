package kafka_test

import (
	"fmt"
	"testing"
)

// TestDifferentialFlinkJoins runs time-based joins in streaming mode on
// eddy and on a real Flink over the same topics, every source bounded
// ('scan.bounded.mode' = 'latest-offset') so that each query ends and
// its whole changelog is compared: event-time temporal joins of versioned
// tables (upsert-kafka, a debezium-json changelog, a deduplicating view)
// with Flink's refusals, interval joins and window joins. The rows of
// every topic are in event-time order, so no row is late and the answers
// do not depend on when either engine emits its watermarks.
func TestDifferentialFlinkJoins(t *testing.T) {
	addr := broker(t)
	flink := flinkSession(t, "streaming")
	eddy := session(t, "streaming")
	// One slot a query: the topics have one partition each, and a shared
	// gateway may have few slots free.
	if _, err := query(t, flink, "SET 'parallelism.default' = '1'", -1); err != nil {
		t.Fatal(err)
	}
	bounded := func(topic, more string) string {
		return fmt.Sprintf(`'topic' = '%s', 'properties.bootstrap.servers' = '%s',
			'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', %s`, topic, addr, more)
	}

	// The example of Flink's documentation on temporal joins: orders, and
	// the currency rates valid at each order's time.
	orders := newTopic(t, addr, 1)
	produce(t, orders, false,
		`{"order_id":"o1","price":2.00,"currency":"EUR","order_time":"2024-01-01 10:15:00"}`,
		`{"order_id":"o2","price":1.00,"currency":"USD","order_time":"2024-01-01 10:30:00"}`,
		`{"order_id":"o3","price":50.00,"currency":"JPY","order_time":"2024-01-01 10:32:00"}`,
		`{"order_id":"o4","price":3.00,"currency":"EUR","order_time":"2024-01-01 10:52:00"}`,
		`{"order_id":"o5","price":5.00,"currency":"USD","order_time":"2024-01-01 11:04:00"}`,
		`{"order_id":"o6","price":7.00,"currency":"EUR","order_time":"2024-01-01 11:20:00"}`,
		`{"order_id":"o7","price":4.00,"currency":"GBP","order_time":"2024-01-01 11:30:00"}`,
		`{"order_id":"o8","price":6.00,"currency":"GBP","order_time":"2024-01-01 12:00:00"}`,
		`{"order_id":"o9","price":8.00,"currency":null,"order_time":"2024-01-01 12:05:00"}`,
		`{"order_id":"o10","price":9.00,"currency":"CHF","order_time":"2024-01-01 12:10:00"}`)
	// The same rates three ways: an upsert-kafka topic, a debezium-json
	// changelog, and an append-only log a view deduplicates.
	upserts := newTopic(t, addr, 1)
	produce(t, upserts, true,
		`{"currency":"JPY"}|{"currency":"JPY","rate":102,"update_time":"2024-01-01 09:00:00"}`,
		`{"currency":"EUR"}|{"currency":"EUR","rate":114,"update_time":"2024-01-01 09:00:00"}`,
		`{"currency":"USD"}|{"currency":"USD","rate":1,"update_time":"2024-01-01 09:00:00"}`,
		`{"currency":"EUR"}|{"currency":"EUR","rate":119,"update_time":"2024-01-01 11:15:00"}`,
		`{"currency":"GBP"}|{"currency":"GBP","rate":108,"update_time":"2024-01-01 11:49:00"}`,
		`{"currency":"CHF"}|{"currency":"CHF","rate":95,"update_time":"2024-01-01 11:50:00"}`,
		`{"currency":"USD"}|{"currency":"USD","rate":2,"update_time":"2024-01-01 12:30:00"}`)
	changes := newTopic(t, addr, 1)
	produce(t, changes, false,
		`{"before":null,"after":{"currency":"JPY","rate":102,"update_time":"2024-01-01 09:00:00"},"op":"c"}`,
		`{"before":null,"after":{"currency":"EUR","rate":114,"update_time":"2024-01-01 09:00:00"},"op":"c"}`,
		`{"before":null,"after":{"currency":"USD","rate":1,"update_time":"2024-01-01 09:00:00"},"op":"c"}`,
		`{"before":{"currency":"EUR","rate":114,"update_time":"2024-01-01 09:00:00"},"after":{"currency":"EUR","rate":119,"update_time":"2024-01-01 11:15:00"},"op":"u"}`,
		`{"before":null,"after":{"currency":"GBP","rate":108,"update_time":"2024-01-01 11:49:00"},"op":"c"}`,
		`{"before":null,"after":{"currency":"USD","rate":2,"update_time":"2024-01-01 12:30:00"},"op":"c"}`)
	// As in the documentation: the version time is the metadata of the
	// debezium records (source.ts_ms).
	sourced := newTopic(t, addr, 1)
	produce(t, sourced, false,
		`{"before":null,"after":{"currency":"JPY","rate":102},"source":{"ts_ms":1704099600000},"op":"c"}`,
		`{"before":null,"after":{"currency":"EUR","rate":114},"source":{"ts_ms":1704099600000},"op":"c"}`,
		`{"before":null,"after":{"currency":"USD","rate":1},"source":{"ts_ms":1704099600000},"op":"c"}`,
		`{"before":{"currency":"EUR","rate":114},"after":{"currency":"EUR","rate":119},"source":{"ts_ms":1704107700000},"op":"u"}`,
		`{"before":null,"after":{"currency":"GBP","rate":108},"source":{"ts_ms":1704109740000},"op":"c"}`)
	log := newTopic(t, addr, 1)
	produce(t, log, false,
		`{"currency":"JPY","rate":102,"update_time":"2024-01-01 09:00:00"}`,
		`{"currency":"EUR","rate":114,"update_time":"2024-01-01 09:00:00"}`,
		`{"currency":"USD","rate":1,"update_time":"2024-01-01 09:00:00"}`,
		`{"currency":"EUR","rate":119,"update_time":"2024-01-01 11:15:00"}`,
		`{"currency":"GBP","rate":108,"update_time":"2024-01-01 11:49:00"}`,
		`{"currency":"USD","rate":2,"update_time":"2024-01-01 12:30:00"}`)
	// Shipments for the interval joins, clicks and views for the window
	// joins.
	shipments := newTopic(t, addr, 1)
	produce(t, shipments, false,
		`{"order_id":"o1","ship_time":"2024-01-01 10:45:00"}`,
		`{"order_id":"o2","ship_time":"2024-01-01 12:00:00"}`,
		`{"order_id":"o4","ship_time":"2024-01-01 11:00:00"}`,
		`{"order_id":"o6","ship_time":"2024-01-01 11:25:00"}`,
		`{"order_id":"o5","ship_time":"2024-01-01 13:30:00"}`,
		`{"order_id":"o9","ship_time":"2024-01-01 14:00:00"}`)
	clicks := newTopic(t, addr, 1)
	produce(t, clicks, false,
		`{"user_id":1,"ts":"2024-01-01 10:01:00"}`, `{"user_id":2,"ts":"2024-01-01 10:02:00"}`,
		`{"user_id":1,"ts":"2024-01-01 10:07:00"}`, `{"user_id":3,"ts":"2024-01-01 10:12:00"}`,
		`{"user_id":1,"ts":"2024-01-01 10:21:00"}`, `{"user_id":2,"ts":"2024-01-01 10:25:00"}`)
	views := newTopic(t, addr, 1)
	produce(t, views, false,
		`{"user_id":1,"page":"a","ts":"2024-01-01 10:03:00"}`, `{"user_id":3,"page":"b","ts":"2024-01-01 10:04:00"}`,
		`{"user_id":1,"page":"c","ts":"2024-01-01 10:15:00"}`, `{"user_id":3,"page":"d","ts":"2024-01-01 10:16:00"}`,
		`{"user_id":2,"page":"e","ts":"2024-01-01 10:26:00"}`, `{"user_id":4,"page":"f","ts":"2024-01-01 10:28:00"}`)

	// Orders as an upsert topic: o1's price changes, o3 is withdrawn.
	orderUpserts := newTopic(t, addr, 1)
	produce(t, orderUpserts, true,
		`{"order_id":"o1"}|{"order_id":"o1","price":2.00,"currency":"EUR","order_time":"2024-01-01 10:15:00"}`,
		`{"order_id":"o3"}|{"order_id":"o3","price":50.00,"currency":"JPY","order_time":"2024-01-01 10:32:00"}`,
		`{"order_id":"o1"}|{"order_id":"o1","price":2.50,"currency":"EUR","order_time":"2024-01-01 11:20:00"}`,
		`{"order_id":"o6"}|{"order_id":"o6","price":7.00,"currency":"EUR","order_time":"2024-01-01 11:30:00"}`,
		`{"order_id":"o3"}|NULL`,
		`{"order_id":"o8"}|{"order_id":"o8","price":6.00,"currency":"GBP","order_time":"2024-01-01 12:00:00"}`)

	json := `'format' = 'json'`
	upsertJSON := `'key.format' = 'json', 'value.format' = 'json'`
	for _, sql := range []string{
		`CREATE TABLE orders (order_id STRING, price DECIMAL(32, 2), currency STRING, order_time TIMESTAMP(3),
			pt AS PROCTIME(), WATERMARK FOR order_time AS order_time - INTERVAL '15' SECOND)
			WITH ('connector' = 'kafka', ` + bounded(orders, json) + `)`,
		`CREATE TABLE rates_upsert (currency STRING, rate DECIMAL(10, 2), update_time TIMESTAMP(3),
			WATERMARK FOR update_time AS update_time - INTERVAL '15' SECOND, PRIMARY KEY (currency) NOT ENFORCED)
			WITH ('connector' = 'upsert-kafka', 'topic' = '` + upserts + `', 'properties.bootstrap.servers' = '` + addr + `',
			'scan.bounded.mode' = 'latest-offset', ` + upsertJSON + `)`,
		`CREATE TABLE rates_nowm (currency STRING, rate DECIMAL(10, 2), update_time TIMESTAMP(3),
			PRIMARY KEY (currency) NOT ENFORCED)
			WITH ('connector' = 'upsert-kafka', 'topic' = '` + upserts + `', 'properties.bootstrap.servers' = '` + addr + `',
			'scan.bounded.mode' = 'latest-offset', ` + upsertJSON + `)`,
		`CREATE TABLE currency_rates (currency STRING, rate DECIMAL(10, 2), update_time TIMESTAMP(3),
			WATERMARK FOR update_time AS update_time - INTERVAL '15' SECOND, PRIMARY KEY (currency) NOT ENFORCED)
			WITH ('connector' = 'kafka', ` + bounded(changes, `'format' = 'debezium-json'`) + `)`,
		`CREATE TABLE sourced_rates (currency STRING, rate DECIMAL(10, 2),
			update_time TIMESTAMP(3) METADATA FROM 'value.source.timestamp' VIRTUAL,
			WATERMARK FOR update_time AS update_time - INTERVAL '15' SECOND, PRIMARY KEY (currency) NOT ENFORCED)
			WITH ('connector' = 'kafka', ` + bounded(sourced, `'value.format' = 'debezium-json'`) + `)`,
		`CREATE TABLE rates_log (currency STRING, rate DECIMAL(10, 2), update_time TIMESTAMP(3),
			WATERMARK FOR update_time AS update_time - INTERVAL '15' SECOND)
			WITH ('connector' = 'kafka', ` + bounded(log, json) + `)`,
		`CREATE VIEW versioned_rates AS SELECT currency, rate, update_time FROM (
			SELECT *, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY update_time DESC) AS rownum FROM rates_log)
			WHERE rownum = 1`,
		`CREATE TABLE order_changes (order_id STRING, price DECIMAL(32, 2), currency STRING, order_time TIMESTAMP(3),
			WATERMARK FOR order_time AS order_time - INTERVAL '15' SECOND, PRIMARY KEY (order_id) NOT ENFORCED)
			WITH ('connector' = 'upsert-kafka', 'topic' = '` + orderUpserts + `', 'properties.bootstrap.servers' = '` + addr + `',
			'scan.bounded.mode' = 'latest-offset', ` + upsertJSON + `)`,
		`CREATE VIEW converted AS SELECT o.order_id, o.price * r.rate AS amount, o.order_time FROM orders AS o
			JOIN rates_upsert FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency`,
		`CREATE TABLE shipments (order_id STRING, ship_time TIMESTAMP(3), WATERMARK FOR ship_time AS ship_time - INTERVAL '1' MINUTE)
			WITH ('connector' = 'kafka', ` + bounded(shipments, json) + `)`,
		`CREATE TABLE clicks (user_id INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' MINUTE)
			WITH ('connector' = 'kafka', ` + bounded(clicks, json) + `)`,
		`CREATE TABLE page_views (user_id INT, page STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' MINUTE)
			WITH ('connector' = 'kafka', ` + bounded(views, json) + `)`,
	} {
		exec1(t, eddy, sql)
		if _, err := query(t, flink, sql, -1); err != nil {
			t.Fatalf("Flink: %s: %v", sql, err)
		}
	}
	queries := []string{
		// Temporal joins: the documentation's query on the debezium
		// changelog, and the same rates from upsert-kafka and a view.
		`SELECT order_id, price, orders.currency, rate, order_time FROM orders
			LEFT JOIN currency_rates FOR SYSTEM_TIME AS OF orders.order_time ON orders.currency = currency_rates.currency`,
		`SELECT order_id, price, orders.currency, rate, order_time, update_time FROM orders
			LEFT JOIN sourced_rates FOR SYSTEM_TIME AS OF orders.order_time ON orders.currency = sourced_rates.currency`,
		`SELECT o.order_id, o.price * r.rate AS converted, r.update_time FROM orders AS o
			JOIN currency_rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency`,
		`SELECT o.order_id, o.currency, r.rate FROM orders AS o
			JOIN rates_upsert FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency`,
		`SELECT o.order_id, r.rate, r.update_time FROM orders AS o
			LEFT JOIN rates_upsert FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency AND r.rate > 100`,
		`SELECT o.order_id, r.rate FROM orders AS o
			JOIN versioned_rates FOR SYSTEM_TIME AS OF o.order_time AS r ON r.currency = o.currency`,
		`SELECT o.order_id, r.currency, r.rate FROM orders AS o
			LEFT JOIN versioned_rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency WHERE o.price > 2`,
		`SELECT r.currency, COUNT(*) AS n, SUM(o.price * r.rate) AS total FROM orders AS o
			JOIN rates_upsert FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency GROUP BY r.currency`,
		`SELECT o.order_id, o.price, r.rate FROM order_changes AS o
			LEFT JOIN rates_upsert FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency`,
		`SELECT window_start, window_end, COUNT(*), SUM(amount) FROM TABLE(TUMBLE(TABLE converted, DESCRIPTOR(order_time), INTERVAL '1' HOUR))
			GROUP BY window_start, window_end`,
		// Flink's refusals.
		`SELECT o.order_id, r.rate FROM orders AS o
			JOIN rates_log FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency`,
		`SELECT o.order_id, r.rate FROM orders AS o
			JOIN rates_nowm FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency`,
		`SELECT o.order_id, r.rate FROM orders AS o
			JOIN rates_upsert FOR SYSTEM_TIME AS OF o.pt AS r ON o.currency = r.currency`,
		`SELECT o.order_id, r.rate FROM (SELECT order_id, currency, CAST(order_time AS TIMESTAMP(3)) AS t FROM orders) AS o
			JOIN rates_upsert FOR SYSTEM_TIME AS OF o.t AS r ON o.currency = r.currency`,
		`SELECT o.order_id, r.rate FROM orders AS o
			JOIN rates_upsert FOR SYSTEM_TIME AS OF o.order_time AS r ON o.price = r.rate`,
		`SELECT * FROM orders AS o JOIN rates_upsert FOR SYSTEM_TIME AS OF o.order_time AS r ON o.price = r.rate`,
		`SELECT o.order_id, r.rate FROM orders AS o, rates_upsert FOR SYSTEM_TIME AS OF o.order_time AS r
			WHERE o.currency = r.currency`,
		`SELECT o.order_id, r.rate FROM orders AS o
			FULL JOIN rates_upsert FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency`,
		`SELECT o.order_id, r.rate FROM orders AS o
			RIGHT JOIN rates_upsert FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency`,
		// Interval joins.
		`SELECT o.order_id, o.order_time, s.ship_time FROM orders AS o, shipments AS s
			WHERE o.order_id = s.order_id AND s.ship_time BETWEEN o.order_time AND o.order_time + INTERVAL '1' HOUR`,
		`SELECT o.order_id, s.ship_time FROM orders AS o JOIN shipments AS s
			ON o.order_id = s.order_id AND s.ship_time > o.order_time AND s.ship_time < o.order_time + INTERVAL '2' HOUR`,
		`SELECT o.order_id, s.ship_time FROM orders AS o LEFT JOIN shipments AS s
			ON o.order_id = s.order_id AND s.ship_time BETWEEN o.order_time AND o.order_time + INTERVAL '1' HOUR`,
		`SELECT o.order_id, s.order_id, s.ship_time FROM orders AS o FULL JOIN shipments AS s
			ON o.order_id = s.order_id AND s.ship_time BETWEEN o.order_time - INTERVAL '10' MINUTE AND o.order_time + INTERVAL '1' HOUR`,
		`SELECT s.order_id, o.price FROM shipments AS s JOIN orders AS o
			ON s.order_id = o.order_id AND o.order_time BETWEEN s.ship_time - INTERVAL '90' MINUTE AND s.ship_time`,
		`SELECT o.order_id, s.ship_time FROM order_changes AS o JOIN shipments AS s
			ON o.order_id = s.order_id AND s.ship_time BETWEEN o.order_time AND o.order_time + INTERVAL '1' HOUR`,
		// Window joins.
		`SELECT L.user_id, L.window_start, L.window_end, L.n, R.pages FROM
			(SELECT user_id, window_start, window_end, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' MINUTES))
				GROUP BY user_id, window_start, window_end) L
			JOIN (SELECT user_id, window_start, window_end, COUNT(*) AS pages FROM TABLE(TUMBLE(TABLE page_views, DESCRIPTOR(ts), INTERVAL '10' MINUTES))
				GROUP BY user_id, window_start, window_end) R
			ON L.user_id = R.user_id AND L.window_start = R.window_start AND L.window_end = R.window_end`,
		`SELECT L.user_id, L.ts, R.page, L.window_start FROM
			(SELECT * FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' MINUTES))) L
			JOIN (SELECT * FROM TABLE(TUMBLE(TABLE page_views, DESCRIPTOR(ts), INTERVAL '10' MINUTES))) R
			ON L.user_id = R.user_id AND L.window_start = R.window_start AND L.window_end = R.window_end`,
		`SELECT L.user_id, R.user_id, L.window_start, R.window_end FROM
			(SELECT * FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' MINUTES))) L
			LEFT JOIN (SELECT * FROM TABLE(TUMBLE(TABLE page_views, DESCRIPTOR(ts), INTERVAL '10' MINUTES))) R
			ON L.user_id = R.user_id AND L.window_start = R.window_start AND L.window_end = R.window_end`,
		`SELECT L.user_id, L.window_start, L.window_end, L.n, R.n FROM
			(SELECT user_id, window_start, window_end, COUNT(*) AS n FROM TABLE(HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES))
				GROUP BY user_id, window_start, window_end) L
			FULL JOIN (SELECT user_id, window_start, window_end, COUNT(*) AS n FROM TABLE(HOP(TABLE page_views, DESCRIPTOR(ts), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES))
				GROUP BY user_id, window_start, window_end) R
			ON L.user_id = R.user_id AND L.window_start = R.window_start AND L.window_end = R.window_end`,
	}
	cases := make([]diffCase, len(queries))
	for i, q := range queries {
		cases[i] = diffCase{sql: q, n: -1}
	}
	match := compareRuns(t, eddy, flink, cases)

	// Batch mode: Flink's batch planner refuses an event-time temporal
	// join of an insert-only source's deduplicating view.
	bflink := flinkSession(t, "batch")
	beddy := session(t, "batch")
	if _, err := query(t, bflink, "SET 'parallelism.default' = '1'", -1); err != nil {
		t.Fatal(err)
	}
	for _, sql := range []string{
		`CREATE TABLE orders (order_id STRING, price DECIMAL(32, 2), currency STRING, order_time TIMESTAMP(3),
			WATERMARK FOR order_time AS order_time - INTERVAL '15' SECOND) WITH ('connector' = 'kafka', ` + bounded(orders, json) + `)`,
		`CREATE TABLE rates_log (currency STRING, rate DECIMAL(10, 2), update_time TIMESTAMP(3),
			WATERMARK FOR update_time AS update_time - INTERVAL '15' SECOND) WITH ('connector' = 'kafka', ` + bounded(log, json) + `)`,
		`CREATE VIEW versioned_rates AS SELECT currency, rate, update_time FROM (
			SELECT *, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY update_time DESC) AS rownum FROM rates_log)
			WHERE rownum = 1`,
	} {
		exec1(t, beddy, sql)
		if _, err := query(t, bflink, sql, -1); err != nil {
			t.Fatalf("Flink: %s: %v", sql, err)
		}
	}
	batch := []diffCase{{sql: `SELECT o.order_id, r.rate FROM orders AS o
			JOIN versioned_rates FOR SYSTEM_TIME AS OF o.order_time AS r ON r.currency = o.currency`, n: -1}}
	match += compareRuns(t, beddy, bflink, batch)
	t.Logf("%d of %d time-based joins over Kafka topics match Flink", match, len(queries)+len(batch))
}
