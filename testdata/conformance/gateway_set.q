# gateway_set.q - SET and RESET as the gateway harness prints their answers:
# an acknowledgement is the one-column table `result` holding OK, and
# listings are sized from their data. The conformance run starts each gateway
# session over the six cluster keys only (no client session options).

SET 'table.local-time-zone' = 'UTC';
!output
+--------+
| result |
+--------+
|     OK |
+--------+
1 row in set
!ok

SET 'sql-client.execution.result-mode' = 'tableau';
!output
+--------+
| result |
+--------+
|     OK |
+--------+
1 row in set
!ok

set;
!output
+-------------------------------------+--------------+
|                                 key |        value |
+-------------------------------------+--------------+
|     $internal.deployment.config-dir | /dummy/conf/ |
|                  execution.attached |         true |
| execution.shutdown-on-attached-exit |        false |
|                    execution.target |       remote |
|              jobmanager.rpc.address |    localhost |
|                           rest.port |        $VAR_REST_PORT |
|    sql-client.execution.result-mode |      tableau |
|               table.local-time-zone |          UTC |
+-------------------------------------+--------------+
8 rows in set
!ok


# an unquoted key, as in Flink's gateway set.q
RESET table.local-time-zone;
!output
+--------+
| result |
+--------+
|     OK |
+--------+
1 row in set
!ok

SET;
!output
+-------------------------------------+--------------+
|                                 key |        value |
+-------------------------------------+--------------+
|     $internal.deployment.config-dir | /dummy/conf/ |
|                  execution.attached |         true |
| execution.shutdown-on-attached-exit |        false |
|                    execution.target |       remote |
|              jobmanager.rpc.address |    localhost |
|                           rest.port |        $VAR_REST_PORT |
|    sql-client.execution.result-mode |      tableau |
+-------------------------------------+--------------+
7 rows in set
!ok

reset;
!output
+--------+
| result |
+--------+
|     OK |
+--------+
1 row in set
!ok

SET;
!output
+-------------------------------------+--------------+
|                                 key |        value |
+-------------------------------------+--------------+
|     $internal.deployment.config-dir | /dummy/conf/ |
|                  execution.attached |         true |
| execution.shutdown-on-attached-exit |        false |
|                    execution.target |       remote |
|              jobmanager.rpc.address |    localhost |
|                           rest.port |        $VAR_REST_PORT |
+-------------------------------------+--------------+
6 rows in set
!ok

show current database;
!output
+-----------------------+
| current database name |
+-----------------------+
|      default_database |
+-----------------------+
1 row in set
!ok
