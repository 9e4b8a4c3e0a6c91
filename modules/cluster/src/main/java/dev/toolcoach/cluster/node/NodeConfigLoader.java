package dev.toolcoach.cluster.node;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Builds a node's configuration from its layers, highest precedence first: command line, JVM system
 * properties, {@code TOOLCOACH_*} environment variables, the HOCON file given by {@code --config} (or
 * {@code TOOLCOACH_CONFIG}), the program's default roles, {@code toolcoach-node.conf}, and the
 * {@code reference.conf} of every library; then the TLS switch ({@link ArteryTls}).
 */
public final class NodeConfigLoader {

    /** The actor system name every node uses; seed addresses must name it. */
    public static final String SYSTEM_NAME = "ToolCoach";

    private static final String NODE_DEFAULTS = "toolcoach-node.conf";

    private NodeConfigLoader() {
    }

    public static Config load(NodeProgram program, NodeOverrides commandLine, Map<String, String> env) {
        NodeOverrides environment = EnvironmentOverrides.from(env);
        Optional<Path> file = commandLine.configFile().or(environment::configFile);
        try {
            return ArteryTls.apply(commandLine.toConfig()
                    .withFallback(ConfigFactory.systemProperties())
                    .withFallback(environment.toConfig())
                    .withFallback(file.map(NodeConfigLoader::parseFile).orElse(ConfigFactory.empty()))
                    .withFallback(program.defaults())
                    .withFallback(ConfigFactory.parseResources(NODE_DEFAULTS, ConfigParseOptions.defaults().setAllowMissing(false)))
                    .withFallback(ConfigFactory.defaultReference())
                    .resolve());
        } catch (ConfigException e) {
            throw new NodeConfigException("configuration problem: " + e.getMessage());
        }
    }

    private static Config parseFile(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new NodeConfigException("cannot read config file " + file + ": no such file");
        }
        if (!Files.isReadable(file)) {
            throw new NodeConfigException("cannot read config file " + file + ": permission denied");
        }
        try {
            return ConfigFactory.parseFile(file.toFile(), ConfigParseOptions.defaults().setAllowMissing(false));
        } catch (ConfigException e) {
            throw new NodeConfigException("cannot parse config file " + e.getMessage()); // the message names file and line
        }
    }
}
