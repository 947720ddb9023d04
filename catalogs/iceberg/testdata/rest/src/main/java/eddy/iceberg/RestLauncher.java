package eddy.iceberg;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.RESTCatalogAdapter;
import org.apache.iceberg.rest.RESTCatalogServlet;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

/**
 * Iceberg's REST catalog server as its REST fixture runs it (a JDBC catalog
 * in SQLite behind RESTCatalogAdapter and RESTCatalogServlet), bound to
 * 127.0.0.1 on a free port. The one argument is the state directory: the
 * catalog database is STATE/catalog.db, the warehouse STATE/warehouse, and
 * the server writes its address to STATE/url once it accepts connections.
 */
public final class RestLauncher {
  private RestLauncher() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: RestLauncher STATE_DIR");
    }
    File state = new File(args[0]).getAbsoluteFile();
    File warehouse = new File(state, "warehouse");
    if (!warehouse.isDirectory() && !warehouse.mkdirs()) {
      throw new IllegalStateException("cannot create " + warehouse);
    }
    Map<String, String> props = new HashMap<>();
    props.put(CatalogProperties.CATALOG_IMPL, JdbcCatalog.class.getName());
    props.put(CatalogProperties.URI, "jdbc:sqlite:file:" + new File(state, "catalog.db").getPath());
    props.put("jdbc.schema-version", "V1");
    props.put(CatalogProperties.WAREHOUSE_LOCATION, warehouse.toURI().toString());
    Catalog catalog = CatalogUtil.buildIcebergCatalog("rest_backend", props, new Configuration());

    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    context.addServlet(new ServletHolder(new RESTCatalogServlet(new RESTCatalogAdapter(catalog))), "/*");
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    server.setHandler(context);
    server.start();

    Path tmp = new File(state, "url.tmp").toPath();
    Files.write(tmp, ("http://127.0.0.1:" + connector.getLocalPort()).getBytes(StandardCharsets.UTF_8));
    Files.move(tmp, new File(state, "url").toPath(), StandardCopyOption.ATOMIC_MOVE);
    server.join();
  }
}
