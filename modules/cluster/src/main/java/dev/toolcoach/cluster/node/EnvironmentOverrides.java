package dev.toolcoach.cluster.node;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads node settings from {@code TOOLCOACH_*} environment variables (what containers and the local
 * scripts set): CONFIG, ROLES, HOST, PORT, SEEDS, MANAGEMENT_HOST, MANAGEMENT_PORT, ATHLETES, TOOL_SUITES, DEVICE,
 * PRECISION.
 * Lists are comma-separated.
 */
public final class EnvironmentOverrides {

    private static final String PREFIX = "TOOLCOACH_";

    private EnvironmentOverrides() {
    }

    public static NodeOverrides from(Map<String, String> env) {
        return new NodeOverrides(
                text(env, "CONFIG").map(Path::of),
                list(env, "ROLES"),
                text(env, "HOST"),
                number(env, "PORT"),
                list(env, "SEEDS"),
                text(env, "MANAGEMENT_HOST"),
                number(env, "MANAGEMENT_PORT"),
                number(env, "ATHLETES"),
                list(env, "TOOL_SUITES"),
                text(env, "DEVICE"),
                text(env, "PRECISION"));
    }

    private static Optional<String> text(Map<String, String> env, String name) {
        return Optional.ofNullable(env.get(PREFIX + name)).map(String::trim).filter(v -> !v.isEmpty());
    }

    private static Optional<List<String>> list(Map<String, String> env, String name) {
        return text(env, name).map(v -> Arrays.stream(v.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList());
    }

    private static Optional<Integer> number(Map<String, String> env, String name) {
        return text(env, name).map(v -> {
            try {
                return Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw new NodeConfigException("environment variable " + PREFIX + name + "='" + v + "' is not a number");
            }
        });
    }
}
