# views_read.q - reading views (issue 6 rules 4, 7 and 8): in queries, joins,
# sub-queries, other views and INSERT ... SELECT, by the fully qualified name
# with the reserved database name quoted; INSERT INTO a view and hints on a
# view are errors; a view over a dropped table fails naming it; a view casts
# to its frozen types. In a persistent catalog named _env_prod whose database
# is `default`.

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

SET 'sql-client.execution.result-mode' = 'tableau';
[INFO] Execute statement succeeded.
!info

SET 'table.dml-sync' = 'true';
[INFO] Execute statement succeeded.
!info

CREATE CATALOG _env_prod WITH ('type' = 'sqlite');
[INFO] Execute statement succeeded.
!info

USE CATALOG _env_prod;
[INFO] Execute statement succeeded.
!info

# A table of the catalog itself: its rows live in the store.
CREATE TABLE orders (
  order_id BIGINT NOT NULL,
  customer_id INT,
  price DOUBLE
);
[INFO] Execute statement succeeded.
!info

INSERT INTO orders VALUES (1, 10, 20.5), (2, 10, 75.0), (3, 20, 120.25), (4, 30, 51.0);
[INFO] Complete execution of the SQL update statement.
!info

CREATE VIEW large_orders AS SELECT order_id, customer_id, price FROM orders WHERE price > 50;
[INFO] Execute statement succeeded.
!info

# ==== rule 4: a view is read anywhere a table is read ====
SELECT customer_id, price FROM large_orders;
+-------------+--------+
| customer_id |  price |
+-------------+--------+
|          10 |   75.0 |
|          20 | 120.25 |
|          30 |   51.0 |
+-------------+--------+
3 rows in set
!ok

USE CATALOG default_catalog;
[INFO] Execute statement succeeded.
!info

# By its fully qualified name, the reserved database name quoted.
SELECT customer_id, price FROM _env_prod.`default`.large_orders WHERE price > 100;
+-------------+--------+
| customer_id |  price |
+-------------+--------+
|          20 | 120.25 |
+-------------+--------+
1 row in set
!ok

# In a join.
SELECT l.order_id, o.price FROM _env_prod.`default`.large_orders AS l
JOIN _env_prod.`default`.orders AS o ON l.order_id = o.order_id
WHERE l.customer_id = 10;
+----------+-------+
| order_id | price |
+----------+-------+
|        2 |  75.0 |
+----------+-------+
1 row in set
!ok

# In a sub-query.
SELECT COUNT(*) AS n FROM _env_prod.`default`.orders
WHERE order_id IN (SELECT order_id FROM _env_prod.`default`.large_orders);
+---+
| n |
+---+
| 3 |
+---+
1 row in set
!ok

USE CATALOG _env_prod;
[INFO] Execute statement succeeded.
!info

# In another view.
CREATE VIEW big_customers AS SELECT DISTINCT customer_id FROM large_orders WHERE price > 60;
[INFO] Execute statement succeeded.
!info

SELECT * FROM big_customers ORDER BY customer_id;
+-------------+
| customer_id |
+-------------+
|          10 |
|          20 |
+-------------+
2 rows in set
!ok

# In INSERT ... SELECT.
CREATE TABLE big_spenders (customer_id INT, price DOUBLE);
[INFO] Execute statement succeeded.
!info

INSERT INTO big_spenders SELECT customer_id, price FROM large_orders;
[INFO] Complete execution of the SQL update statement.
!info

SELECT COUNT(*) AS n FROM big_spenders;
+---+
| n |
+---+
| 3 |
+---+
1 row in set
!ok

# A view is read-only.
INSERT INTO large_orders VALUES (9, 9, 99.0);
[ERROR] Could not execute SQL statement. Reason:
ValidationException: View '`_env_prod`.`default`.`large_orders`' cannot be written: it is a view, not a table.
!error

SELECT * FROM large_orders /*+ OPTIONS('k' = 'v') */;
[ERROR] Could not execute SQL statement. Reason:
ValidationException: View '`_env_prod`.`default`.`large_orders`' cannot be enriched with new options. Hints can only be applied to tables.
!error

# ==== rule 7: a view whose source is gone fails when read, naming it ====
CREATE TABLE scratch (id INT);
[INFO] Execute statement succeeded.
!info

CREATE VIEW over_scratch AS SELECT id FROM scratch;
[INFO] Execute statement succeeded.
!info

DROP TABLE scratch;
[INFO] Execute statement succeeded.
!info

SELECT * FROM over_scratch;
[ERROR] Could not execute SQL statement. Reason:
SqlValidatorException: Object 'scratch' not found within '_env_prod.default'
!error

# ==== rule 8: reading a view casts to the types it froze ====
CREATE TABLE nums (n INT, s STRING);
[INFO] Execute statement succeeded.
!info

CREATE VIEW v_nums AS SELECT n FROM nums;
[INFO] Execute statement succeeded.
!info

DROP TABLE nums;
[INFO] Execute statement succeeded.
!info

CREATE TABLE nums (n DOUBLE, s STRING);
[INFO] Execute statement succeeded.
!info

INSERT INTO nums VALUES (2.61, 'x');
[INFO] Complete execution of the SQL update statement.
!info

# The view has INT, the table now DOUBLE: 2.61 reads as 2.
SELECT * FROM v_nums;
+---+
| n |
+---+
| 2 |
+---+
1 row in set
!ok
