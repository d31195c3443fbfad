package org.elasticsearch.node;

import java.util.Collection;
import java.util.Map;

import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.plugins.MockPluginsService;
import org.elasticsearch.plugins.Plugin;
import org.elasticsearch.plugins.PluginsLoader;
import org.elasticsearch.plugins.PluginsService;

/**
 * A Node whose plugins are classes on the classpath instead of bundles under {home}/modules.
 * It lives in Elasticsearch's package because the hooks it needs (NodeConstruction, NodeServiceProvider) are
 * package-private; the plugins service is the test framework's classpath one, without the test framework's
 * JUnit bootstrap (which refuses to run as root).
 */
public class ClasspathPluginsNode extends Node {
  public ClasspathPluginsNode(Settings settings, Collection<Class<? extends Plugin>> plugins) {
    this(InternalSettingsPreparer.prepareEnvironment(settings, Map.of(), null, () -> "engram-dev-0"), plugins);
  }

  private ClasspathPluginsNode(Environment environment, Collection<Class<? extends Plugin>> plugins) {
    super(NodeConstruction.prepareConstruction(environment, null, new NodeServiceProvider() {
      @Override
      PluginsService newPluginService(Environment env, PluginsLoader loader) {
        return new MockPluginsService(env.settings(), env, plugins);
      }
    }, true));
  }
}
