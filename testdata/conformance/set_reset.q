# set_reset.q - SET and RESET of session options: a key set twice keeps its
# last value, a key set to its default value is still listed, RESET of one key
# leaves the others, RESET of a key never set succeeds and changes nothing, and
# `reset;` drops every session key but keeps the cluster keys.
#
# Like Flink's harness, the conformance run starts each client session with
# 'table.exec.legacy-cast-behaviour' = 'DISABLED' and
# 'sql-client.display.print-time-cost' = 'false' set, over the six cluster keys.

SET 'table.local-time-zone' = 'UTC';
[INFO] Execute statement succeeded.
!info

SET 'table.local-time-zone' = 'Asia/Shanghai';
[INFO] Execute statement succeeded.
!info

SET 'table.dml-sync' = 'false';
[INFO] Execute statement succeeded.
!info

set;
+-------------------------------------+---------------+
|                                 key |         value |
+-------------------------------------+---------------+
|     $internal.deployment.config-dir |  /dummy/conf/ |
|                  execution.attached |          true |
| execution.shutdown-on-attached-exit |         false |
|                    execution.target |        remote |
|              jobmanager.rpc.address |     $VAR_JOBMANAGER_RPC_ADDRESS |
|                           rest.port |         $VAR_REST_PORT |
|  sql-client.display.print-time-cost |         false |
|                      table.dml-sync |         false |
|    table.exec.legacy-cast-behaviour |      DISABLED |
|               table.local-time-zone | Asia/Shanghai |
+-------------------------------------+---------------+
10 rows in set
!ok

# never set in this session
RESET 'sql-client.verbose';
[INFO] Execute statement succeeded.
!info

RESET 'table.local-time-zone';
[INFO] Execute statement succeeded.
!info

SET;
+-------------------------------------+--------------+
|                                 key |        value |
+-------------------------------------+--------------+
|     $internal.deployment.config-dir | /dummy/conf/ |
|                  execution.attached |         true |
| execution.shutdown-on-attached-exit |        false |
|                    execution.target |       remote |
|              jobmanager.rpc.address |    $VAR_JOBMANAGER_RPC_ADDRESS |
|                           rest.port |        $VAR_REST_PORT |
|  sql-client.display.print-time-cost |        false |
|                      table.dml-sync |        false |
|    table.exec.legacy-cast-behaviour |     DISABLED |
+-------------------------------------+--------------+
9 rows in set
!ok

reset;
[INFO] Execute statement succeeded.
!info

SET;
+-------------------------------------+--------------+
|                                 key |        value |
+-------------------------------------+--------------+
|     $internal.deployment.config-dir | /dummy/conf/ |
|                  execution.attached |         true |
| execution.shutdown-on-attached-exit |        false |
|                    execution.target |       remote |
|              jobmanager.rpc.address |    $VAR_JOBMANAGER_RPC_ADDRESS |
|                           rest.port |        $VAR_REST_PORT |
+-------------------------------------+--------------+
6 rows in set
!ok
