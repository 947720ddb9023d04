# views_frozen_errors.q - issue 6 rule 8, the failing side: a view keeps
# the column types it had when created; reading it casts to them, and a
# value that cannot be cast fails the statement with a clear error, while
# a column the view uses that no longer exists fails naming the column.
# The session stays usable after each failure.

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

SET 'sql-client.execution.result-mode' = 'tableau';
[INFO] Execute statement succeeded.
!info

CREATE CATALOG _env_prod WITH ('type' = 'sqlite');
[INFO] Execute statement succeeded.
!info

USE CATALOG _env_prod;
[INFO] Execute statement succeeded.
!info

CREATE TABLE src (a INT, b STRING);
[INFO] Execute statement succeeded.
!info

INSERT INTO src VALUES (1, 'x');
[INFO] Submitting SQL update statement to the cluster...
[INFO] SQL update statement has been successfully submitted to the cluster:
Job ID:

!info

CREATE VIEW v AS SELECT a, b FROM src;
[INFO] Execute statement succeeded.
!info

# The table is re-created with a STRING where the view froze an INT.
DROP TABLE src;
[INFO] Execute statement succeeded.
!info

CREATE TABLE src (a STRING, b STRING);
[INFO] Execute statement succeeded.
!info

INSERT INTO src VALUES ('abc', 'y');
[INFO] Submitting SQL update statement to the cluster...
[INFO] SQL update statement has been successfully submitted to the cluster:
Job ID:

!info

DESCRIBE v;
+------+--------+------+-----+--------+-----------+
| name |   type | null | key | extras | watermark |
+------+--------+------+-----+--------+-----------+
|    a |    INT | TRUE |     |        |           |
|    b | STRING | TRUE |     |        |           |
+------+--------+------+-----+--------+-----------+
2 rows in set
!ok

SELECT * FROM v;
[ERROR] Could not execute SQL statement. Reason:
NumberFormatException: For input string: 'abc'. Invalid character found.
!error

# A query that does not read the uncastable column is not affected: the
# cast of a column nobody reads is pruned, as in Flink.
SELECT b FROM v;
+---+
| b |
+---+
| y |
+---+
1 row in set
!ok

# Castable text reads through the frozen type.
TRUNCATE TABLE src;
[INFO] Execute statement succeeded.
!info

INSERT INTO src VALUES ('42', 'z');
[INFO] Submitting SQL update statement to the cluster...
[INFO] SQL update statement has been successfully submitted to the cluster:
Job ID:

!info

SELECT * FROM v;
+----+---+
|  a | b |
+----+---+
| 42 | z |
+----+---+
1 row in set
!ok

# A column the view reads is gone.
DROP TABLE src;
[INFO] Execute statement succeeded.
!info

CREATE TABLE src (x INT);
[INFO] Execute statement succeeded.
!info

SELECT * FROM v;
[ERROR] Could not execute SQL statement. Reason:
SqlValidatorException: Column 'a' not found in table 'src'
!error

SHOW VIEWS;
+-----------+
| view name |
+-----------+
|         v |
+-----------+
1 row in set
!ok
