package dev.toolcoach.tools.mcp;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One MCP server whose tools a tool node hosts as a suite of that name.
 *
 * @param name           the suite's name (and the server's in messages)
 * @param transport      how it is reached: a process started over stdio, or a streamable HTTP endpoint
 * @param perTrajectory  one session (for stdio: one process) per trajectory, for servers that keep state;
 *                       otherwise one shared session for every trajectory
 * @param tools          the server's tools offered (empty: all of them)
 * @param requestTimeout longest the client waits for one answer (initialization, a listing, a call)
 * @param restart        backoff between restarts of a server that died or cannot be reached
 */
public record McpServerSpec(String name, Transport transport, boolean perTrajectory, List<String> tools,
                            Duration requestTimeout, Backoff restart) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    public McpServerSpec {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("MCP server name '" + name + "' must be 1-64 letters, digits, '_' or '-'");
        }
        Objects.requireNonNull(transport, "transport");
        tools = List.copyOf(tools);
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("request-timeout of MCP server '" + name + "' must be positive, got " + requestTimeout);
        }
        Objects.requireNonNull(restart, "restart");
    }

    /** How the server is reached. */
    public sealed interface Transport permits Stdio, Http {
    }

    /**
     * A local process speaking MCP on its standard input and output.
     *
     * @param env        variables added to the small default environment (PATH, HOME, ...); the node's own
     *                   environment is not passed on, so its secrets stay with it
     * @param workingDir the process's working directory (empty: the node's; per trajectory: the session's folder)
     */
    public record Stdio(String command, List<String> args, Map<String, String> env, Optional<Path> workingDir)
            implements Transport {
        public Stdio {
            if (command == null || command.isBlank()) throw new IllegalArgumentException("command must not be blank");
            args = List.copyOf(args);
            env = Map.copyOf(env);
            Objects.requireNonNull(workingDir, "workingDir");
        }

        /**
         * This server for one session with its own folder: {@value #SESSION_DIR} in arguments and environment
         * values becomes the folder, which is also the working directory unless one is configured.
         */
        Stdio inSessionFolder(Path folder) {
            String dir = folder.toString();
            Map<String, String> sessionEnv = new java.util.LinkedHashMap<>();
            env.forEach((key, value) -> sessionEnv.put(key, value.replace(SESSION_DIR, dir)));
            return new Stdio(command, args.stream().map(arg -> arg.replace(SESSION_DIR, dir)).toList(), sessionEnv,
                    workingDir.or(() -> Optional.of(folder)));
        }
    }

    /** Stands for a per-trajectory session's private folder in a stdio server's arguments and environment. */
    public static final String SESSION_DIR = "{session_dir}";

    /** This server for one per-trajectory session with its own folder (see {@link Stdio#inSessionFolder}). */
    McpServerSpec inSessionFolder(Path folder) {
        return transport instanceof Stdio stdio
                ? new McpServerSpec(name, stdio.inSessionFolder(folder), perTrajectory, tools, requestTimeout, restart)
                : this;
    }

    /**
     * A streamable HTTP endpoint.
     *
     * @param headers sent with every request (for example {@code Authorization})
     */
    public record Http(URI url, Map<String, String> headers) implements Transport {
        public Http {
            Objects.requireNonNull(url, "url");
            String scheme = url.getScheme();
            if (!"http".equals(scheme) && !"https".equals(scheme)) {
                throw new IllegalArgumentException("url " + url + " must be http or https");
            }
            headers = Map.copyOf(headers);
        }
    }

    /** Restart delays: {@code min} after the first failure, doubling up to {@code max}; reset by a success. */
    public record Backoff(Duration min, Duration max) {
        public Backoff {
            if (min.isNegative() || min.isZero() || max.compareTo(min) < 0) {
                throw new IllegalArgumentException("restart backoff needs 0 < min <= max, got min " + min + ", max " + max);
            }
        }

        Duration after(Duration previous) {
            if (previous == null) return min;
            Duration doubled = previous.multipliedBy(2);
            return doubled.compareTo(max) > 0 ? max : doubled;
        }
    }
}
