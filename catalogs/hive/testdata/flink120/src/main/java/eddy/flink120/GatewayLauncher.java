package eddy.flink120;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.table.gateway.SqlGateway;
import org.apache.flink.table.gateway.service.context.DefaultContext;
import org.apache.flink.table.gateway.service.session.SessionManager;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Starts a local Flink 1.20 MiniCluster (one TaskManager) and a SQL Gateway REST
 * endpoint on 127.0.0.1 that submits its jobs to that cluster, then prints
 * the gateway's URL.
 *
 * <p>Arguments: [state-dir [slots]]. With a state directory the URL is also
 * written to state-dir/url once the endpoint listens. The process runs until
 * it is terminated; SIGTERM stops the gateway and the cluster.
 */
public final class GatewayLauncher {

    private GatewayLauncher() {}

    public static void main(String[] args) throws Exception {
        Path stateDir = args.length > 0 ? Paths.get(args[0]) : null;
        int slots = args.length > 1 ? Integer.parseInt(args[1]) : 4;

        Configuration clusterConf = new Configuration();
        clusterConf.set(RestOptions.ADDRESS, "127.0.0.1");
        clusterConf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        clusterConf.set(RestOptions.BIND_PORT, "0");
        clusterConf.set(TaskManagerOptions.NUM_TASK_SLOTS, slots);
        MiniCluster cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setConfiguration(clusterConf)
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(slots)
                                .build());
        cluster.start();
        URI clusterRest = cluster.getRestAddress().get();

        int port = freePort();
        Map<String, String> props = new HashMap<>();
        props.put("execution.target", "remote");
        props.put("rest.address", clusterRest.getHost());
        props.put("rest.port", Integer.toString(clusterRest.getPort()));
        props.put("sql-gateway.endpoint.type", "rest");
        props.put("sql-gateway.endpoint.rest.address", "127.0.0.1");
        props.put("sql-gateway.endpoint.rest.bind-address", "127.0.0.1");
        props.put("sql-gateway.endpoint.rest.port", Integer.toString(port));
        props.put("sql-gateway.endpoint.rest.bind-port", Integer.toString(port));
        // As SqlGateway.main does it, with the cluster's address as dynamic
        // options on top of FLINK_CONF_DIR's configuration.
        DefaultContext context =
                DefaultContext.load(Configuration.fromMap(props), Collections.emptyList(), true);
        SqlGateway gateway =
                new SqlGateway(context.getFlinkConfig(), SessionManager.create(context));

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    try {
                                        gateway.stop();
                                    } catch (Exception e) {
                                        System.err.println("stopping the gateway: " + e);
                                    }
                                    try {
                                        cluster.close();
                                    } catch (Exception e) {
                                        System.err.println("stopping the cluster: " + e);
                                    }
                                    stopped.countDown();
                                }));
        gateway.start();

        String url = "http://127.0.0.1:" + port;
        if (stateDir != null) {
            writeAtomically(stateDir.resolve("url"), url + "\n");
        }
        System.out.println(url);
        System.out.flush();
        stopped.await();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    private static void writeAtomically(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, text.getBytes(StandardCharsets.UTF_8));
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
