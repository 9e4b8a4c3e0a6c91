package dev.toolcoach.cluster.node;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The cluster roles a ToolCoach node can take; the names are Akka cluster role names. */
public enum NodeRole {
    COACH, LEARNER, ATHLETE, TOOL;

    public String roleName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static NodeRole parse(String name) {
        for (NodeRole role : values()) {
            if (role.roleName().equals(name)) {
                return role;
            }
        }
        throw new NodeConfigException("unknown role '" + name + "' (known roles: " + known() + ")");
    }

    private static String known() {
        return Arrays.stream(values()).map(NodeRole::roleName).collect(Collectors.joining(", "));
    }
}
