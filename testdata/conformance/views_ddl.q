# views_ddl.q - the view rules of the spec (issue 6): CREATE VIEW with IF NOT
# EXISTS and OR REPLACE, the shared name space of tables and views, column
# lists, names resolved at creation, SHOW / DESCRIBE of views, ALTER VIEW,
# cycles, DROP, frozen columns and temporary views, in a persistent catalog
# named _env_prod whose database is `default`.

# The environment catalog of the spec: a persistent catalog whose database is `default`.
CREATE CATALOG _env_prod WITH ('type' = 'sqlite');
[INFO] Execute statement succeeded.
!info

USE CATALOG _env_prod;
[INFO] Execute statement succeeded.
!info

SHOW CURRENT DATABASE;
+-----------------------+
| current database name |
+-----------------------+
|               default |
+-----------------------+
1 row in set
!ok

CREATE TABLE orders (
  order_id BIGINT NOT NULL,
  customer_id INT,
  price DOUBLE,
  product STRING
) WITH (
  'connector' = 'datagen'
);
[INFO] Execute statement succeeded.
!info

CREATE TABLE customers (
  customer_id INT NOT NULL,
  name STRING
) WITH (
  'connector' = 'datagen'
);
[INFO] Execute statement succeeded.
!info

# ==== rule 2: CREATE VIEW ====
# Names are resolved now, against the current catalog and database, and stored fully qualified.
CREATE VIEW large_orders AS SELECT order_id, customer_id, price FROM orders WHERE price > 50;
[INFO] Execute statement succeeded.
!info

SHOW CREATE VIEW large_orders;
+----------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
|                                                                                                                                                                                                                                             result |
+----------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
| CREATE VIEW `_env_prod`.`default`.`large_orders` (
  `order_id`,
  `customer_id`,
  `price`
)
AS SELECT `orders`.`order_id`, `orders`.`customer_id`, `orders`.`price`
FROM `_env_prod`.`default`.`orders` AS `orders`
WHERE `orders`.`price` > 50
 |
+----------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
1 row in set
!ok

DESCRIBE large_orders;
+-------------+--------+-------+-----+--------+-----------+
|        name |   type |  null | key | extras | watermark |
+-------------+--------+-------+-----+--------+-----------+
|    order_id | BIGINT | FALSE |     |        |           |
| customer_id |    INT |  TRUE |     |        |           |
|       price | DOUBLE |  TRUE |     |        |           |
+-------------+--------+-------+-----+--------+-----------+
3 rows in set
!ok

# IF NOT EXISTS and a view of that name: success, the view is unchanged.
CREATE VIEW IF NOT EXISTS large_orders AS SELECT order_id FROM orders;
[INFO] Execute statement succeeded.
!info

SHOW CREATE VIEW large_orders;
+----------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
|                                                                                                                                                                                                                                             result |
+----------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
| CREATE VIEW `_env_prod`.`default`.`large_orders` (
  `order_id`,
  `customer_id`,
  `price`
)
AS SELECT `orders`.`order_id`, `orders`.`customer_id`, `orders`.`price`
FROM `_env_prod`.`default`.`orders` AS `orders`
WHERE `orders`.`price` > 50
 |
+----------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
1 row in set
!ok

# IF NOT EXISTS and a table of that name: success, the table is unchanged.
CREATE VIEW IF NOT EXISTS orders AS SELECT 1 AS x;
[INFO] Execute statement succeeded.
!info

SHOW VIEWS;
+--------------+
|    view name |
+--------------+
| large_orders |
+--------------+
1 row in set
!ok

# Plain CREATE VIEW: a view or a table of that name is an error.
CREATE VIEW large_orders AS SELECT order_id FROM orders;
[ERROR] Could not execute SQL statement. Reason:
TableAlreadyExistException: Table (or view) default.large_orders already exists in Catalog _env_prod.
!error

CREATE VIEW orders AS SELECT order_id FROM orders;
[ERROR] Could not execute SQL statement. Reason:
TableAlreadyExistException: Table (or view) default.orders already exists in Catalog _env_prod.
!error

# OR REPLACE never replaces a table.
CREATE OR REPLACE VIEW orders AS SELECT 1 AS x;
[ERROR] Could not execute SQL statement. Reason:
TableAlreadyExistException: Table (or view) default.orders already exists in Catalog _env_prod.
!error

# OR REPLACE together with IF NOT EXISTS is rejected.
CREATE OR REPLACE VIEW IF NOT EXISTS large_orders AS SELECT 1 AS x;
[ERROR] Could not execute SQL statement. Reason:
ValidationException: CREATE OR REPLACE VIEW cannot be combined with IF NOT EXISTS.
!error

# OR REPLACE replaces the query, the column names and the comment.
CREATE OR REPLACE VIEW large_orders (id, customer) COMMENT 'orders above 100' AS
  SELECT order_id, customer_id FROM orders WHERE price > 100;
[INFO] Execute statement succeeded.
!info

SHOW CREATE VIEW large_orders;
+------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
|                                                                                                                                                                                                                                   result |
+------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
| CREATE VIEW `_env_prod`.`default`.`large_orders` (
  `id`,
  `customer`
)
COMMENT 'orders above 100'
AS SELECT `orders`.`order_id`, `orders`.`customer_id`
FROM `_env_prod`.`default`.`orders` AS `orders`
WHERE `orders`.`price` > 100
 |
+------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
1 row in set
!ok

DESCRIBE large_orders;
+----------+--------+-------+-----+--------+-----------+
|     name |   type |  null | key | extras | watermark |
+----------+--------+-------+-----+--------+-----------+
|       id | BIGINT | FALSE |     |        |           |
| customer |    INT |  TRUE |     |        |           |
+----------+--------+-------+-----+--------+-----------+
2 rows in set
!ok

# OR REPLACE creates a view that does not exist; SELECT * is stored as the column list.
CREATE OR REPLACE VIEW small_orders AS SELECT * FROM orders WHERE price <= 50;
[INFO] Execute statement succeeded.
!info

SHOW CREATE VIEW small_orders;
+--------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
|                                                                                                                                                                                                                                                                               result |
+--------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
| CREATE VIEW `_env_prod`.`default`.`small_orders` (
  `order_id`,
  `customer_id`,
  `price`,
  `product`
)
AS SELECT `orders`.`order_id`, `orders`.`customer_id`, `orders`.`price`, `orders`.`product`
FROM `_env_prod`.`default`.`orders` AS `orders`
WHERE `orders`.`price` <= 50
 |
+--------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
1 row in set
!ok

# The column list must name every column of the query.
CREATE VIEW bad_cols (a, b) AS SELECT order_id FROM orders;
[ERROR] Could not execute SQL statement. Reason:
ValidationException: VIEW definition and input fields not match:
	Def fields: [a, b].
	Input fields: [order_id].
!error

# A view's column names must be unique.
CREATE VIEW dup AS SELECT order_id, order_id FROM orders;
[ERROR] Could not execute SQL statement. Reason:
ValidationException: SQL validation failed. A column with the same name `order_id` has been defined at line 1, column 27.
!error

CREATE VIEW dup (a, a) AS SELECT order_id, price FROM orders;
[ERROR] Could not execute SQL statement. Reason:
ValidationException: SQL validation failed. A column with the same name `a` has been defined at line 1, column 34.
!error

CREATE VIEW spenders AS
  SELECT c.name, SUM(o.price) AS total
  FROM orders o JOIN customers c ON o.customer_id = c.customer_id
  GROUP BY c.name;
[INFO] Execute statement succeeded.
!info

SHOW CREATE VIEW spenders;
+-------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
|                                                                                                                                                                                                                                                                              result |
+-------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
| CREATE VIEW `_env_prod`.`default`.`spenders` (
  `name`,
  `total`
)
AS SELECT `c`.`name`, SUM(`o`.`price`) AS `total`
FROM `_env_prod`.`default`.`orders` AS `o`
INNER JOIN `_env_prod`.`default`.`customers` AS `c` ON `o`.`customer_id` = `c`.`customer_id`
GROUP BY `c`.`name`
 |
+-------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
1 row in set
!ok

# The query is validated when the view is created.
CREATE VIEW broken AS SELECT nope FROM orders;
[ERROR] Could not execute SQL statement. Reason:
SqlValidatorException: Column 'nope' not found in any table
!error

CREATE VIEW broken AS SELECT * FROM missing_table;
[ERROR] Could not execute SQL statement. Reason:
SqlValidatorException: Object 'missing_table' not found
!error

# A later statement with another current catalog sees the same stored names.
USE CATALOG default_catalog;
[INFO] Execute statement succeeded.
!info

SHOW CREATE VIEW _env_prod.`default`.large_orders;
+------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
|                                                                                                                                                                                                                                   result |
+------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
| CREATE VIEW `_env_prod`.`default`.`large_orders` (
  `id`,
  `customer`
)
COMMENT 'orders above 100'
AS SELECT `orders`.`order_id`, `orders`.`customer_id`
FROM `_env_prod`.`default`.`orders` AS `orders`
WHERE `orders`.`price` > 100
 |
+------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
1 row in set
!ok

# A table of the same name in the current catalog does not change what the view reads.
CREATE TABLE orders (order_id INT) WITH ('connector' = 'datagen');
[INFO] Execute statement succeeded.
!info

CREATE VIEW default_catalog.default_database.big AS SELECT * FROM _env_prod.`default`.large_orders;
[INFO] Execute statement succeeded.
!info

SHOW CREATE VIEW big;
+-------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
|                                                                                                                                                                                                result |
+-------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
| CREATE VIEW `default_catalog`.`default_database`.`big` (
  `id`,
  `customer`
)
AS SELECT `large_orders`.`id`, `large_orders`.`customer`
FROM `_env_prod`.`default`.`large_orders` AS `large_orders`
 |
+-------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
1 row in set
!ok

DESCRIBE big;
+----------+--------+-------+-----+--------+-----------+
|     name |   type |  null | key | extras | watermark |
+----------+--------+-------+-----+--------+-----------+
|       id | BIGINT | FALSE |     |        |           |
| customer |    INT |  TRUE |     |        |           |
+----------+--------+-------+-----+--------+-----------+
2 rows in set
!ok

USE CATALOG _env_prod;
[INFO] Execute statement succeeded.
!info

# ==== rule 3: SHOW VIEWS lists views, SHOW TABLES tables and views ====
SHOW VIEWS;
+--------------+
|    view name |
+--------------+
| large_orders |
| small_orders |
|     spenders |
+--------------+
3 rows in set
!ok

SHOW TABLES;
+--------------+
|   table name |
+--------------+
|    customers |
| large_orders |
|       orders |
| small_orders |
|     spenders |
+--------------+
5 rows in set
!ok

SHOW VIEWS FROM `default` LIKE '%orders';
+--------------+
|    view name |
+--------------+
| large_orders |
| small_orders |
+--------------+
2 rows in set
!ok

SHOW VIEWS IN _env_prod.`default` NOT LIKE '%orders';
+-----------+
| view name |
+-----------+
|  spenders |
+-----------+
1 row in set
!ok

SHOW TABLES IN `default` LIKE 's%';
+--------------+
|   table name |
+--------------+
| small_orders |
|     spenders |
+--------------+
2 rows in set
!ok

SHOW COLUMNS FROM spenders LIKE 't%';
+-------+--------+------+-----+--------+-----------+
|  name |   type | null | key | extras | watermark |
+-------+--------+------+-----+--------+-----------+
| total | DOUBLE | TRUE |     |        |           |
+-------+--------+------+-----+--------+-----------+
1 row in set
!ok

SHOW CREATE TABLE large_orders;
[ERROR] Could not execute SQL statement. Reason:
TableException: SHOW CREATE TABLE is only supported for tables, but `_env_prod`.`default`.`large_orders` is a view. Please use SHOW CREATE VIEW instead.
!error

SHOW CREATE VIEW orders;
[ERROR] Could not execute SQL statement. Reason:
TableException: SHOW CREATE VIEW is only supported for views, but `_env_prod`.`default`.`orders` is a table. Please use SHOW CREATE TABLE instead.
!error

# ==== rule 5: ALTER VIEW ... AS re-validates and re-freezes columns and types ====
ALTER VIEW small_orders AS SELECT order_id, CAST(price AS INT) AS price FROM orders WHERE price <= 10;
[INFO] Execute statement succeeded.
!info

DESCRIBE small_orders;
+----------+--------+-------+-----+--------+-----------+
|     name |   type |  null | key | extras | watermark |
+----------+--------+-------+-----+--------+-----------+
| order_id | BIGINT | FALSE |     |        |           |
|    price |    INT |  TRUE |     |        |           |
+----------+--------+-------+-----+--------+-----------+
2 rows in set
!ok

SHOW CREATE VIEW small_orders;
+------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
|                                                                                                                                                                                                                             result |
+------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
| CREATE VIEW `_env_prod`.`default`.`small_orders` (
  `order_id`,
  `price`
)
AS SELECT `orders`.`order_id`, CAST(`orders`.`price` AS INT) AS `price`
FROM `_env_prod`.`default`.`orders` AS `orders`
WHERE `orders`.`price` <= 10
 |
+------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
1 row in set
!ok

ALTER VIEW small_orders AS SELECT nope FROM orders;
[ERROR] Could not execute SQL statement. Reason:
SqlValidatorException: Column 'nope' not found in any table
!error

ALTER VIEW orders AS SELECT 1 AS x;
[ERROR] Could not execute SQL statement. Reason:
ValidationException: ALTER VIEW for a table is not allowed
!error

ALTER VIEW orders RENAME TO orders2;
[ERROR] Could not execute SQL statement. Reason:
ValidationException: ALTER VIEW for a table is not allowed
!error

ALTER VIEW no_such_view AS SELECT 1 AS x;
[ERROR] Could not execute SQL statement. Reason:
ValidationException: View `_env_prod`.`default`.`no_such_view` doesn't exist or is a temporary view.
!error

# RENAME TO within the database.
ALTER VIEW small_orders RENAME TO tiny_orders;
[INFO] Execute statement succeeded.
!info

SHOW VIEWS;
+--------------+
|    view name |
+--------------+
| large_orders |
|     spenders |
|  tiny_orders |
+--------------+
3 rows in set
!ok

# A table of the new name is the already-exists error.
ALTER VIEW tiny_orders RENAME TO customers;
[ERROR] Could not execute SQL statement. Reason:
TableAlreadyExistException: Table (or view) default.customers already exists in Catalog _env_prod.
!error

# A new name in another database of the catalog moves the view there.
CREATE DATABASE archive;
[INFO] Execute statement succeeded.
!info

ALTER VIEW tiny_orders RENAME TO archive.tiny_orders;
[INFO] Execute statement succeeded.
!info

SHOW VIEWS FROM archive;
+-------------+
|   view name |
+-------------+
| tiny_orders |
+-------------+
1 row in set
!ok

SHOW VIEWS;
+--------------+
|    view name |
+--------------+
| large_orders |
|     spenders |
+--------------+
2 rows in set
!ok

SHOW CREATE VIEW archive.tiny_orders;
+-----------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
|                                                                                                                                                                                                                            result |
+-----------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
| CREATE VIEW `_env_prod`.`archive`.`tiny_orders` (
  `order_id`,
  `price`
)
AS SELECT `orders`.`order_id`, CAST(`orders`.`price` AS INT) AS `price`
FROM `_env_prod`.`default`.`orders` AS `orders`
WHERE `orders`.`price` <= 10
 |
+-----------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
1 row in set
!ok

# A new name in another catalog is an error.
ALTER VIEW archive.tiny_orders RENAME TO default_catalog.default_database.tiny_orders;
[ERROR] Could not execute SQL statement. Reason:
ValidationException: Cannot rename `_env_prod`.`archive`.`tiny_orders` to `default_catalog`.`default_database`.`tiny_orders`: a view can only be renamed within its catalog.
!error

# ==== rule 6: a view cannot read itself, directly or through other views ====
CREATE VIEW a AS SELECT order_id FROM orders;
[INFO] Execute statement succeeded.
!info

CREATE VIEW b AS SELECT * FROM a;
[INFO] Execute statement succeeded.
!info

ALTER VIEW a AS SELECT * FROM b;
[ERROR] Could not execute SQL statement. Reason:
ValidationException: View '_env_prod.default.a' would read from itself (_env_prod.default.a -> _env_prod.default.b -> _env_prod.default.a). A view cannot refer to itself, directly or through other views.
!error

CREATE OR REPLACE VIEW a AS SELECT order_id FROM b;
[ERROR] Could not execute SQL statement. Reason:
ValidationException: View '_env_prod.default.a' would read from itself (_env_prod.default.a -> _env_prod.default.b -> _env_prod.default.a). A view cannot refer to itself, directly or through other views.
!error

ALTER VIEW a AS SELECT * FROM a;
[ERROR] Could not execute SQL statement. Reason:
ValidationException: View '_env_prod.default.a' would read from itself (_env_prod.default.a -> _env_prod.default.a). A view cannot refer to itself, directly or through other views.
!error

# The old definition is kept.
SHOW CREATE VIEW a;
+---------------------------------------------------------------------------------------------------------------------------------------+
|                                                                                                                                result |
+---------------------------------------------------------------------------------------------------------------------------------------+
| CREATE VIEW `_env_prod`.`default`.`a` (
  `order_id`
)
AS SELECT `orders`.`order_id`
FROM `_env_prod`.`default`.`orders` AS `orders`
 |
+---------------------------------------------------------------------------------------------------------------------------------------+
1 row in set
!ok

# ==== rule 7: DROP VIEW drops only views, DROP TABLE only tables ====
DROP VIEW orders;
[ERROR] Could not execute SQL statement. Reason:
ValidationException: View with identifier '_env_prod.default.orders' does not exist.
!error

DROP TABLE a;
[ERROR] Could not execute SQL statement. Reason:
ValidationException: Table with identifier '_env_prod.default.a' does not exist.
!error

DROP VIEW IF EXISTS no_such_view;
[INFO] Execute statement succeeded.
!info

# Dropping a view that another view reads leaves the other view in the catalog.
DROP VIEW a;
[INFO] Execute statement succeeded.
!info

SHOW VIEWS;
+--------------+
|    view name |
+--------------+
|            b |
| large_orders |
|     spenders |
+--------------+
3 rows in set
!ok

# A statement that reads it later fails, naming the missing view.
CREATE VIEW c AS SELECT * FROM b;
[ERROR] Could not execute SQL statement. Reason:
SqlValidatorException: Object 'a' not found within '_env_prod.default'
!error

DROP TABLE customers;
[INFO] Execute statement succeeded.
!info

SHOW VIEWS;
+--------------+
|    view name |
+--------------+
|            b |
| large_orders |
|     spenders |
+--------------+
3 rows in set
!ok

CREATE VIEW d AS SELECT * FROM spenders;
[ERROR] Could not execute SQL statement. Reason:
SqlValidatorException: Object 'customers' not found within '_env_prod.default'
!error

# ==== rule 8: a view keeps the columns and types it had when created or altered ====
CREATE TABLE items (id INT, qty INT, note STRING) WITH ('connector' = 'datagen');
[INFO] Execute statement succeeded.
!info

CREATE VIEW all_items AS SELECT * FROM items;
[INFO] Execute statement succeeded.
!info

# A column added later does not appear in the view.
ALTER TABLE items ADD extra STRING;
[INFO] Execute statement succeeded.
!info

DESCRIBE all_items;
+------+--------+------+-----+--------+-----------+
| name |   type | null | key | extras | watermark |
+------+--------+------+-----+--------+-----------+
|   id |    INT | TRUE |     |        |           |
|  qty |    INT | TRUE |     |        |           |
| note | STRING | TRUE |     |        |           |
+------+--------+------+-----+--------+-----------+
3 rows in set
!ok

# The table is re-created with other types: the view keeps its own.
DROP TABLE items;
[INFO] Execute statement succeeded.
!info

CREATE TABLE items (id INT, qty DOUBLE, note STRING) WITH ('connector' = 'datagen');
[INFO] Execute statement succeeded.
!info

DESCRIBE all_items;
+------+--------+------+-----+--------+-----------+
| name |   type | null | key | extras | watermark |
+------+--------+------+-----+--------+-----------+
|   id |    INT | TRUE |     |        |           |
|  qty |    INT | TRUE |     |        |           |
| note | STRING | TRUE |     |        |           |
+------+--------+------+-----+--------+-----------+
3 rows in set
!ok

# Statements that read it see the frozen types.
CREATE VIEW over_items AS SELECT qty FROM all_items;
[INFO] Execute statement succeeded.
!info

DESCRIBE over_items;
+------+------+------+-----+--------+-----------+
| name | type | null | key | extras | watermark |
+------+------+------+-----+--------+-----------+
|  qty |  INT | TRUE |     |        |           |
+------+------+------+-----+--------+-----------+
1 row in set
!ok

# ALTER VIEW ... AS freezes the new types.
ALTER VIEW all_items AS SELECT * FROM items;
[INFO] Execute statement succeeded.
!info

DESCRIBE all_items;
+------+--------+------+-----+--------+-----------+
| name |   type | null | key | extras | watermark |
+------+--------+------+-----+--------+-----------+
|   id |    INT | TRUE |     |        |           |
|  qty | DOUBLE | TRUE |     |        |           |
| note | STRING | TRUE |     |        |           |
+------+--------+------+-----+--------+-----------+
3 rows in set
!ok

# Dropping a column the view uses makes later reads fail, naming the column.
ALTER TABLE items DROP note;
[INFO] Execute statement succeeded.
!info

CREATE VIEW e AS SELECT * FROM all_items;
[ERROR] Could not execute SQL statement. Reason:
SqlValidatorException: Column 'note' not found in table 'items'
!error

# ==== rule 10: temporary views shadow permanent ones for the session ====
CREATE TEMPORARY VIEW large_orders AS SELECT order_id FROM orders WHERE price > 1000;
[INFO] Execute statement succeeded.
!info

SHOW CREATE VIEW large_orders;
+------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
|                                                                                                                                                                                   result |
+------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
| CREATE TEMPORARY VIEW `_env_prod`.`default`.`large_orders` (
  `order_id`
)
AS SELECT `orders`.`order_id`
FROM `_env_prod`.`default`.`orders` AS `orders`
WHERE `orders`.`price` > 1000
 |
+------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
1 row in set
!ok

# Listed once.
SHOW VIEWS;
+--------------+
|    view name |
+--------------+
|    all_items |
|            b |
| large_orders |
|   over_items |
|     spenders |
+--------------+
5 rows in set
!ok

CREATE TEMPORARY VIEW large_orders AS SELECT 1 AS x;
[ERROR] Could not execute SQL statement. Reason:
ValidationException: Temporary table '`_env_prod`.`default`.`large_orders`' already exists
!error

# ALTER VIEW changes permanent views only.
ALTER VIEW large_orders AS SELECT 1 AS x;
[ERROR] Could not execute SQL statement. Reason:
ValidationException: View `_env_prod`.`default`.`large_orders` doesn't exist or is a temporary view.
!error

DROP VIEW large_orders;
[ERROR] Could not execute SQL statement. Reason:
ValidationException: Temporary view with identifier '`_env_prod`.`default`.`large_orders`' exists. Drop it first before removing the permanent view.
!error

DROP TEMPORARY VIEW large_orders;
[INFO] Execute statement succeeded.
!info

DROP TEMPORARY VIEW large_orders;
[ERROR] Could not execute SQL statement. Reason:
ValidationException: Temporary table or view with identifier '_env_prod.default.large_orders' does not exist.
!error

# The permanent view is visible again.
SHOW CREATE VIEW large_orders;
+------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
|                                                                                                                                                                                                                                   result |
+------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
| CREATE VIEW `_env_prod`.`default`.`large_orders` (
  `id`,
  `customer`
)
COMMENT 'orders above 100'
AS SELECT `orders`.`order_id`, `orders`.`customer_id`
FROM `_env_prod`.`default`.`orders` AS `orders`
WHERE `orders`.`price` > 100
 |
+------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
1 row in set
!ok

CREATE TEMPORARY VIEW tmp_only AS SELECT * FROM large_orders;
[INFO] Execute statement succeeded.
!info

SHOW VIEWS LIKE 't%';
+-----------+
| view name |
+-----------+
|  tmp_only |
+-----------+
1 row in set
!ok

DROP TEMPORARY VIEW IF EXISTS tmp_only;
[INFO] Execute statement succeeded.
!info

SHOW VIEWS LIKE 't%';
Empty set
!ok
