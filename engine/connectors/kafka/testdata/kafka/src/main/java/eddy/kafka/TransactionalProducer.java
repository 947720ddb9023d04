package eddy.kafka;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Properties;
import java.util.UUID;

/**
 * Writes the lines of standard input to a topic in one Kafka transaction,
 * one record per line, and commits it, or aborts it with --abort. An
 * aborted transaction still leaves its records in the log, marked aborted.
 *
 * <p>Arguments: --bootstrap-server host:port --topic name [--abort]
 * [--key-separator sep] [--transactional-id id] [--command-config file].
 * With --key-separator a line is split at its first sep into key and value.
 * The default transactional id is random. Exits 0 once the transaction is
 * committed or aborted.
 */
public final class TransactionalProducer {

    private TransactionalProducer() {}

    public static void main(String[] args) throws IOException {
        String bootstrap = null;
        String topic = null;
        String separator = null;
        String txId = "eddy-tx-" + UUID.randomUUID();
        String config = null;
        boolean abort = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--bootstrap-server":
                    bootstrap = value(args, ++i);
                    break;
                case "--topic":
                    topic = value(args, ++i);
                    break;
                case "--key-separator":
                    separator = value(args, ++i);
                    break;
                case "--transactional-id":
                    txId = value(args, ++i);
                    break;
                case "--command-config":
                    config = value(args, ++i);
                    break;
                case "--abort":
                    abort = true;
                    break;
                default:
                    usage("unknown argument " + args[i]);
            }
        }
        if (bootstrap == null || topic == null) {
            usage("--bootstrap-server and --topic are required");
        }

        Properties p = new Properties();
        if (config != null) {
            try (InputStream in = Files.newInputStream(Paths.get(config))) {
                p.load(in);
            }
        }
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, txId);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());

        int n = 0;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p);
                BufferedReader in =
                        new BufferedReader(
                                new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            producer.initTransactions();
            producer.beginTransaction();
            for (String line; (line = in.readLine()) != null; n++) {
                String key = null;
                String value = line;
                int at = separator == null ? -1 : line.indexOf(separator);
                if (at >= 0) {
                    key = line.substring(0, at);
                    value = line.substring(at + separator.length());
                }
                producer.send(new ProducerRecord<>(topic, key, value));
            }
            if (abort) {
                // Aborting drops records still unsent; send them all
                // first, so that the log holds the aborted records.
                producer.flush();
                producer.abortTransaction();
            } else {
                producer.commitTransaction();
            }
        }
        System.err.println((abort ? "aborted " : "committed ") + n + " records");
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            usage(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    private static void usage(String why) {
        System.err.println("TransactionalProducer: " + why);
        System.err.println(
                "usage: TransactionalProducer --bootstrap-server host:port --topic name [--abort]"
                        + " [--key-separator sep] [--transactional-id id] [--command-config file]");
        System.exit(2);
    }
}
