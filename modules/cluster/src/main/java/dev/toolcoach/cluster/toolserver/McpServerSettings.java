package dev.toolcoach.cluster.toolserver;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigValueType;
import dev.toolcoach.cluster.node.NodeConfigException;
import dev.toolcoach.tools.mcp.McpServerSpec;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The MCP servers a tool node hosts, read from {@code toolcoach.tools.mcp}: one entry per server under
 * {@code servers}, named by its key (the suite's name), with either {@code command} (stdio) or {@code url}
 * (streamable HTTP), in name order. A bad entry is one {@link NodeConfigException} naming its key.
 */
final class McpServerSettings {

    private static final String PREFIX = "toolcoach.tools.mcp.";
    private static final Set<String> KEYS = Set.of("command", "args", "env", "working-dir", "url", "headers", "sessions",
            "tools", "request-timeout");

    private McpServerSettings() {
    }

    static List<McpServerSpec> fromConfig(Config tools) {
        if (!tools.hasPath("mcp")) return List.of();
        Config mcp = tools.getConfig("mcp");
        McpServerSpec.Backoff backoff;
        try {
            backoff = new McpServerSpec.Backoff(mcp.getDuration("restart-backoff.min"), mcp.getDuration("restart-backoff.max"));
        } catch (IllegalArgumentException e) {
            throw new NodeConfigException(PREFIX + "restart-backoff: " + e.getMessage());
        }
        Duration defaultTimeout = mcp.getDuration("request-timeout");
        List<McpServerSpec> servers = new ArrayList<>();
        Config all = mcp.getConfig("servers");
        // HOCON keeps no key order: by name, so every node lists the suites alike
        for (String name : new TreeSet<>(all.root().keySet())) {
            String key = PREFIX + "servers." + name;
            if (all.root().get(name).valueType() != ConfigValueType.OBJECT) {
                throw new NodeConfigException(key + " must be an object with command or url");
            }
            servers.add(server(name, key, all.getConfig("\"" + name + "\""), defaultTimeout, backoff));
        }
        return List.copyOf(servers);
    }

    private static McpServerSpec server(String name, String key, Config server, Duration defaultTimeout, McpServerSpec.Backoff backoff) {
        for (String field : server.root().keySet()) {
            if (!KEYS.contains(field)) throw new NodeConfigException(key + "." + field + " is not a setting of an MCP server " + KEYS);
        }
        boolean stdio = server.hasPath("command");
        if (stdio == server.hasPath("url")) {
            throw new NodeConfigException(key + " needs exactly one of command (a process over stdio) or url (streamable HTTP)");
        }
        String sessions = server.hasPath("sessions") ? server.getString("sessions") : "shared";
        if (!sessions.equals("shared") && !sessions.equals("per-trajectory")) {
            throw new NodeConfigException(key + ".sessions is '" + sessions + "', must be shared or per-trajectory");
        }
        List<String> tools = server.hasPath("tools") ? server.getStringList("tools") : List.of();
        Duration timeout = server.hasPath("request-timeout") ? server.getDuration("request-timeout") : defaultTimeout;
        try {
            McpServerSpec.Transport transport = stdio ? stdio(key, server) : http(key, server);
            return new McpServerSpec(name, transport, sessions.equals("per-trajectory"), tools, timeout, backoff);
        } catch (IllegalArgumentException e) {
            throw new NodeConfigException(key + ": " + e.getMessage());
        }
    }

    private static McpServerSpec.Stdio stdio(String key, Config server) {
        for (String httpOnly : List.of("headers")) {
            if (server.hasPath(httpOnly)) throw new NodeConfigException(key + "." + httpOnly + " is for url servers, not command ones");
        }
        Optional<Path> workingDir = Optional.empty();
        if (server.hasPath("working-dir") && !server.getString("working-dir").isEmpty()) {
            Path dir = Path.of(server.getString("working-dir"));
            if (!Files.isDirectory(dir)) throw new NodeConfigException(key + ".working-dir: " + dir + " is not a directory");
            workingDir = Optional.of(dir);
        }
        List<String> args = server.hasPath("args") ? server.getStringList("args") : List.of();
        return new McpServerSpec.Stdio(server.getString("command"), args, strings(server, "env"), workingDir);
    }

    private static McpServerSpec.Http http(String key, Config server) {
        for (String stdioOnly : List.of("args", "env", "working-dir")) {
            if (server.hasPath(stdioOnly)) throw new NodeConfigException(key + "." + stdioOnly + " is for command servers, not url ones");
        }
        try {
            return new McpServerSpec.Http(new URI(server.getString("url")), strings(server, "headers"));
        } catch (URISyntaxException e) {
            throw new NodeConfigException(key + ".url is not a URL: " + e.getMessage());
        }
    }

    private static Map<String, String> strings(Config server, String path) {
        Map<String, String> values = new LinkedHashMap<>();
        if (server.hasPath(path)) {
            Config object = server.getConfig(path);
            object.root().keySet().forEach(k -> values.put(k, object.getString("\"" + k + "\"")));
        }
        return values;
    }
}
