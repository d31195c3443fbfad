package engram.backends;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.elasticsearch.common.logging.LogConfigurator;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.node.ClasspathPluginsNode;
import org.elasticsearch.node.Node;
import org.elasticsearch.transport.netty4.Netty4Plugin;

/**
 * One single-node Elasticsearch 8 cluster with HTTP on 127.0.0.1:{port}, for development and tests only.
 *
 * Usage: java -cp {classpath} engram.backends.ElasticsearchLauncher {port} {home}
 *
 * The node is the real server (Lucene, HNSW `dense_vector` kNN, bulk, delete-by-query) built from Maven Central
 * artifacts; `dense_vector` and the `knn` search option live in the server module itself, so the only plugin
 * needed is the Netty4 HTTP/transport module. No x-pack: no security, licensing or ML, none of which Engram uses.
 */
public final class ElasticsearchLauncher {
  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: ElasticsearchLauncher <http-port> <home-dir>");
      System.exit(2);
    }
    int port = Integer.parseInt(args[0]);
    Path home = Path.of(args[1]).toAbsolutePath();
    Files.createDirectories(home.resolve("data"));
    Files.createDirectories(home.resolve("logs"));

    Settings settings = Settings.builder()
        .put("cluster.name", "engram-dev")
        .put("node.name", "engram-dev-0")
        .put("path.home", home.toString())
        .put("path.data", home.resolve("data").toString())
        .put("path.logs", home.resolve("logs").toString())
        .put("discovery.type", "single-node")
        .put("network.host", "127.0.0.1")
        .put("http.port", port)
        .put("transport.port", 0)
        .put("http.type", "netty4")
        .put("transport.type", "netty4")
        // A nearly full developer disk must not turn the index read-only mid-test.
        .put("cluster.routing.allocation.disk.threshold_enabled", false)
        .put("action.destructive_requires_name", false)
        .build();

    // Console logging at INFO (what the distribution's log4j2.properties would set up), before any logger exists.
    LogConfigurator.configureESLogging();
    LogConfigurator.configureWithoutConfig(settings);

    Node node = new ClasspathPluginsNode(settings, List.of(Netty4Plugin.class));
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        node.close();
        node.awaitClose(20, TimeUnit.SECONDS);
      } catch (Exception e) {
        e.printStackTrace();
      } finally {
        stopped.countDown();
      }
    }, "engram-es-shutdown"));
    node.start();
    System.out.println("engram elasticsearch started on http://127.0.0.1:" + port);
    stopped.await();
  }
}
