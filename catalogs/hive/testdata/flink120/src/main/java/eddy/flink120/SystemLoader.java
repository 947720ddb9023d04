package eddy.flink120;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM's system class loader for the gateway (-Djava.system.class.loader):
 * a URLClassLoader over the launcher's classes and the jars listed in the
 * file named by the system property eddy.classpath.file. Hive 3.1's
 * SessionState (behind Flink's Hive dialect) casts its own class loader to
 * URLClassLoader, which the application class loader of Java 9 and later is
 * not; with this loader Flink, Hive and Hadoop are all loaded by one that is.
 */
public final class SystemLoader extends URLClassLoader {

    static {
        ClassLoader.registerAsParallelCapable();
    }

    /** Called by the JVM with the application class loader, which is not used. */
    public SystemLoader(ClassLoader appLoader) {
        super(urls(), ClassLoader.getPlatformClassLoader());
    }

    private static URL[] urls() {
        try {
            List<URL> out = new ArrayList<>();
            for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
                if (!entry.isEmpty()) {
                    out.add(Path.of(entry).toUri().toURL());
                }
            }
            String listed =
                    new String(
                            Files.readAllBytes(Path.of(System.getProperty("eddy.classpath.file"))),
                            StandardCharsets.UTF_8);
            for (String entry : listed.trim().split(File.pathSeparator)) {
                if (!entry.isEmpty()) {
                    out.add(Path.of(entry).toUri().toURL());
                }
            }
            return out.toArray(new URL[0]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
