-- The view walk-through of Flink's Hive catalog examples as one script.
-- ${HIVE_CONF_DIR} and ${DB} are filled in by the test.
LOAD MODULE hive WITH ('hive-version' = '3.1.2');
SHOW MODULES;
CREATE CATALOG alan_hive WITH ('type' = 'hive', 'default-database' = 'default',
  'hive-conf-dir' = '${HIVE_CONF_DIR}');
USE CATALOG alan_hive;
CREATE DATABASE IF NOT EXISTS ${DB};
USE ${DB};
SET 'table.sql-dialect' = 'hive';
CREATE TABLE viewtest (
  id INT,
  name STRING,
  age INT) TBLPROPERTIES (
  'sink.partition-commit.delay'='5 s',
  'sink.partition-commit.trigger'='partition-time',
  'sink.partition-commit.policy.kind'='metastore,success-file');
INSERT INTO viewtest VALUES (1, 'alan', 18);
CREATE VIEW test_view_table_V AS SELECT * FROM viewtest;
SHOW VIEWS;
SELECT * FROM test_view_table_V;
CREATE VIEW test_view_view_V (v2_id, v2_name, v2_age) COMMENT 'test_view_view_V comment'
  AS SELECT * FROM test_view_table_V;
SELECT * FROM test_view_view_V;
SHOW CREATE VIEW test_view_view_V;
SET 'table.sql-dialect' = 'default';
USE CATALOG default_catalog;
DROP DATABASE alan_hive.${DB} CASCADE;
UNLOAD MODULE hive;
