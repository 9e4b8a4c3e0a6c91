package dev.toolcoach.tasks.calling;

import java.util.Locale;

/** BFCL's test categories, which decide how many calls are expected and whether order matters. */
public enum CallCategory {
    /** One function offered, exactly one call expected. */
    SIMPLE,
    /** Several functions offered, exactly one call to the right one expected. */
    MULTIPLE,
    /** Several calls expected, matched in any order. */
    PARALLEL;

    /** The category of a BFCL file or id ({@code BFCL_v3_parallel.json}, {@code parallel_12}), or null. */
    public static CallCategory fromName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.contains("parallel")) return PARALLEL;
        if (n.contains("multiple")) return MULTIPLE;
        if (n.contains("simple")) return SIMPLE;
        return null;
    }
}
