package dev.toolcoach.learn.core;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The training algorithms a job can name. */
public enum Algorithm {
    GRPO, DPO, SFT;

    /**
     * @param name case-insensitive ({@code grpo}, {@code DPO}, ...)
     * @throws IllegalArgumentException naming the valid algorithms
     */
    public static Algorithm parse(String name) {
        String wanted = name == null ? "" : name.trim().toUpperCase(Locale.ROOT);
        for (Algorithm a : values()) {
            if (a.name().equals(wanted)) return a;
        }
        throw new IllegalArgumentException("unknown algorithm '" + name + "'; valid: "
                + Arrays.stream(values()).map(Algorithm::lowerName).collect(Collectors.joining(", ")));
    }

    public String lowerName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
