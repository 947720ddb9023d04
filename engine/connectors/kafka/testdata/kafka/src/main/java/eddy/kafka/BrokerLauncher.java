package eddy.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.Uuid;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.ref.Reference;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * Starts one Apache Kafka node in KRaft mode that is both broker and
 * controller, on 127.0.0.1, and prints the address of its PLAINTEXT
 * listener once clients can use it.
 *
 * <p>Arguments: state-dir [name=value ...]. The node keeps its data in
 * state-dir/data, formatted with a random cluster id when it holds none
 * yet. Each start listens on five free ports: PLAINTEXT, SASL_PLAINTEXT
 * with SASL/PLAIN and SCRAM-SHA-256 (user {@value #USER}, password {@value #PASSWORD}), SSL
 * and SASL_SSL (the same logins) with the key store state-dir/tls/broker.p12
 * (PKCS12, password {@value #TLS_PASSWORD}, made by kafka.sh), and the
 * controller listener. The name=value arguments override broker
 * properties. Once the client listeners answer, the launcher writes
 *
 * <ul>
 *   <li>state-dir/sasl-url: host:port of the SASL_PLAINTEXT listener,
 *   <li>state-dir/sasl-client.properties: client properties for it,
 *   <li>state-dir/tls-url: host:port of the SSL listener,
 *   <li>state-dir/tls-client.properties: client properties for it,
 *   <li>state-dir/sasl-ssl-url: host:port of the SASL_SSL listener,
 *   <li>state-dir/sasl-ssl-client.properties: client properties for it,
 *   <li>state-dir/url: host:port of the PLAINTEXT listener, written last,
 * </ul>
 *
 * <p>and prints the PLAINTEXT address. The process runs until it is
 * terminated; SIGTERM shuts the node down cleanly. It holds a lock on
 * state-dir/broker.lock, which names its process id, all the while: a
 * second launcher on the same state directory exits at once.
 */
public final class BrokerLauncher {

    static final String USER = "eddy";
    static final String PASSWORD = "eddy-secret";
    static final String TLS_PASSWORD = "eddy-tls";
    private static final String HOST = "127.0.0.1";

    private BrokerLauncher() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: BrokerLauncher state-dir [name=value ...]");
            System.exit(2);
        }
        Path state = Paths.get(args[0]).toAbsolutePath();
        Path data = state.resolve("data");
        Files.createDirectories(state);
        // Two nodes on one data directory corrupt its metadata log before
        // Kafka's own lock on the log directory is taken, so hold a lock
        // of our own from the start to the end of the process.
        FileLock lock = lockState(state.resolve("broker.lock"));
        int[] ports = freePorts(5);
        String plain = HOST + ":" + ports[0];
        String sasl = HOST + ":" + ports[1];
        String controller = HOST + ":" + ports[2];
        String ssl = HOST + ":" + ports[3];
        String saslSsl = HOST + ":" + ports[4];
        Path tls = state.resolve("tls");

        Map<String, String> props = brokerProperties(data, plain, sasl, controller, ssl, saslSsl, tls);
        for (int i = 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            if (eq <= 0) {
                System.err.println("not a name=value broker property: " + args[i]);
                System.exit(2);
            }
            props.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        Path config = state.resolve("server.properties");
        writeAtomically(config, propertiesText(props));

        if (!Files.exists(data.resolve("meta.properties"))) {
            format(config);
        }

        Thread node =
                new Thread(() -> kafka.Kafka.main(new String[] {config.toString()}), "kafka-main");
        node.start();

        awaitReady(clientProperties(plain, false, null));
        addScramUser(clientProperties(plain, false, null));
        awaitReady(clientProperties(sasl, true, null));
        awaitReady(clientProperties(ssl, false, tls));
        awaitReady(clientProperties(saslSsl, true, tls));

        writeClient(state, "sasl", clientProperties(sasl, true, null), sasl);
        writeClient(state, "tls", clientProperties(ssl, false, tls), ssl);
        writeClient(state, "sasl-ssl", clientProperties(saslSsl, true, tls), saslSsl);
        writeAtomically(state.resolve("url"), plain + "\n");
        System.out.println(plain);
        System.out.flush();
        node.join();
        Reference.reachabilityFence(lock);
    }

    /**
     * Writes state-dir/NAME-client.properties (the client properties
     * without the address) and then state-dir/NAME-url.
     */
    private static void writeClient(Path state, String name, Properties props, String address)
            throws IOException {
        Properties p = new Properties();
        p.putAll(props);
        p.remove(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
        writeAtomically(state.resolve(name + "-client.properties"), propertiesText(p));
        writeAtomically(state.resolve(name + "-url"), address + "\n");
    }

    /**
     * Locks file for the life of the process and writes the process id
     * into it; exits when another process holds the lock.
     */
    private static FileLock lockState(Path file) throws IOException {
        FileChannel channel =
                FileChannel.open(
                        file,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
        FileLock lock = channel.tryLock();
        if (lock == null) {
            String holder =
                    new String(Files.readAllBytes(file), StandardCharsets.UTF_8).trim();
            System.err.println(
                    "another Kafka node (pid "
                            + (holder.isEmpty() ? "unknown" : holder)
                            + ") uses "
                            + file.getParent());
            System.exit(1);
        }
        channel.truncate(0);
        channel.write(
                ByteBuffer.wrap(
                        (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)));
        channel.force(false);
        return lock;
    }

    /** The broker properties of a small single-node cluster for tests. */
    private static Map<String, String> brokerProperties(
            Path data,
            String plain,
            String sasl,
            String controller,
            String ssl,
            String saslSsl,
            Path tls) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.voters", "1@" + controller);
        p.put("controller.listener.names", "CONTROLLER");
        String clients =
                "PLAINTEXT://" + plain
                        + ",SASL_PLAINTEXT://" + sasl
                        + ",SSL://" + ssl
                        + ",SASL_SSL://" + saslSsl;
        p.put("listeners", clients + ",CONTROLLER://" + controller);
        p.put("advertised.listeners", clients);
        p.put(
                "listener.security.protocol.map",
                "PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,SSL:SSL,SASL_SSL:SASL_SSL,"
                        + "CONTROLLER:PLAINTEXT");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256");
        for (String listener : new String[] {"sasl_plaintext", "sasl_ssl"}) {
            p.put(
                    "listener.name." + listener + ".scram-sha-256.sasl.jaas.config",
                    "org.apache.kafka.common.security.scram.ScramLoginModule required;");
            p.put(
                    "listener.name." + listener + ".plain.sasl.jaas.config",
                    "org.apache.kafka.common.security.plain.PlainLoginModule required"
                            + " username=\"" + USER + "\" password=\"" + PASSWORD + "\""
                            + " user_" + USER + "=\"" + PASSWORD + "\";");
        }
        // The SSL listeners present the certificate the test CA signed for
        // 127.0.0.1 and localhost; clients are not asked for one.
        p.put("ssl.keystore.type", "PKCS12");
        p.put("ssl.keystore.location", tls.resolve("broker.p12").toString());
        p.put("ssl.keystore.password", TLS_PASSWORD);
        p.put("ssl.key.password", TLS_PASSWORD);
        p.put("log.dirs", data.toString());
        // One partition and one replica everywhere, internal topics included,
        // so that topics, consumer groups and transactions come up at once.
        p.put("num.partitions", "1");
        p.put("default.replication.factor", "1");
        p.put("min.insync.replicas", "1");
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("share.coordinator.state.topic.num.partitions", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        // Few threads: the node shares a small machine with the tests.
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        p.put("num.recovery.threads.per.data.dir", "1");
        p.put("background.threads", "2");
        p.put("log.cleaner.threads", "1");
        p.put("log.cleaner.dedupe.buffer.size", Integer.toString(4 << 20));
        return p;
    }

    /**
     * Gives the user a SCRAM-SHA-256 credential with the same password, so
     * that the SASL listener takes SCRAM as well as PLAIN logins (KRaft
     * keeps SCRAM credentials in the metadata log; upserting is idempotent).
     */
    private static void addScramUser(Properties props) throws Exception {
        try (Admin admin = Admin.create(props)) {
            admin.alterUserScramCredentials(
                            java.util.List.of(
                                    new org.apache.kafka.clients.admin.UserScramCredentialUpsertion(
                                            USER,
                                            new org.apache.kafka.clients.admin.ScramCredentialInfo(
                                                    org.apache.kafka.clients.admin.ScramMechanism
                                                            .SCRAM_SHA_256,
                                                    4096),
                                            PASSWORD)))
                    .all()
                    .get();
        }
    }

    /** Formats the node's storage with a fresh random cluster id. */
    private static void format(Path config) {
        String clusterId = Uuid.randomUuid().toString();
        int rc;
        try {
            rc =
                    kafka.tools.StorageTool.execute(
                            new String[] {"format", "-t", clusterId, "-c", config.toString()},
                            new PrintStream(System.out, true, StandardCharsets.UTF_8));
        } catch (Exception e) {
            System.err.println("formatting the storage failed: " + e);
            rc = 1;
        }
        if (rc != 0) {
            System.exit(1);
        }
    }

    /**
     * The client properties of a listener: with SASL/PLAIN logins when
     * sasl, over TLS trusting the test CA (tls/truststore.p12) unless tls is
     * null.
     */
    private static Properties clientProperties(String address, boolean sasl, Path tls) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, address);
        if (tls != null) {
            p.put(AdminClientConfig.SECURITY_PROTOCOL_CONFIG, sasl ? "SASL_SSL" : "SSL");
            p.put("ssl.truststore.type", "PKCS12");
            p.put("ssl.truststore.location", tls.resolve("truststore.p12").toString());
            p.put("ssl.truststore.password", TLS_PASSWORD);
        }
        if (sasl) {
            if (tls == null) {
                p.put(AdminClientConfig.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
            }
            p.put("sasl.mechanism", "PLAIN");
            p.put(
                    "sasl.jaas.config",
                    "org.apache.kafka.common.security.plain.PlainLoginModule required"
                            + " username=\"" + USER + "\" password=\"" + PASSWORD + "\";");
        }
        return p;
    }

    /**
     * Waits until the listener at props answers a DescribeCluster request
     * naming this node. The calling script bounds the total start time.
     */
    private static void awaitReady(Properties props) throws InterruptedException {
        awaitListening(props.getProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
        Properties p = new Properties();
        p.putAll(props);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "5000");
        p.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "200");
        try (Admin admin = Admin.create(p)) {
            while (true) {
                try {
                    Collection<Node> nodes =
                            admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                    if (!nodes.isEmpty()) {
                        return;
                    }
                } catch (Exception e) {
                    // Not up yet.
                }
                Thread.sleep(100);
            }
        }
    }

    /**
     * Waits until host:port accepts connections, so that the admin client
     * does not fill the log with failed connection attempts.
     */
    private static void awaitListening(String address) throws InterruptedException {
        int colon = address.lastIndexOf(':');
        InetSocketAddress to =
                new InetSocketAddress(
                        address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)));
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(to, 1000);
                return;
            } catch (IOException e) {
                Thread.sleep(100);
            }
        }
    }

    /** Returns n distinct free ports on 127.0.0.1. */
    private static int[] freePorts(int n) throws IOException {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                sockets.add(new ServerSocket(0, 1, InetAddress.getByName(HOST)));
            }
            int[] ports = new int[n];
            for (int i = 0; i < n; i++) {
                ports[i] = sockets.get(i).getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket s : sockets) {
                s.close();
            }
        }
    }

    private static String propertiesText(Map<?, ?> props) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<?, ?> e : props.entrySet()) {
            b.append(escape(e.getKey().toString(), true))
                    .append('=')
                    .append(escape(e.getValue().toString(), false))
                    .append('\n');
        }
        return b.toString();
    }

    /** Escapes text for a .properties file. */
    private static String escape(String s, boolean key) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\':
                    b.append("\\\\");
                    break;
                case '\n':
                    b.append("\\n");
                    break;
                case '=':
                case ':':
                case ' ':
                    if (key || (c == ' ' && i == 0)) {
                        b.append('\\');
                    }
                    b.append(c);
                    break;
                default:
                    b.append(c);
            }
        }
        return b.toString();
    }

    private static void writeAtomically(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, text.getBytes(StandardCharsets.UTF_8));
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
