package dev.toolcoach.tasks.calling;

import java.util.Locale;

/**
 * BFCL's test categories, which decide how many calls are expected, whether order matters, and the language the
 * argument values are written in.
 */
public enum CallCategory {
    /** One function offered, exactly one call expected. */
    SIMPLE(SourceLanguage.PYTHON),
    /** Several functions offered, exactly one call to the right one expected. */
    MULTIPLE(SourceLanguage.PYTHON),
    /** Several calls expected, matched in any order. */
    PARALLEL(SourceLanguage.PYTHON),
    /** As simple, with every argument value a string of Java source text. */
    JAVA(SourceLanguage.JAVA),
    /** As simple, with every argument value a string of JavaScript source text. */
    JAVASCRIPT(SourceLanguage.JAVASCRIPT);

    private final SourceLanguage language;

    CallCategory(SourceLanguage language) {
        this.language = language;
    }

    public SourceLanguage language() {
        return language;
    }

    /** Whether exactly one call is expected, to the function offered (BFCL's simple checker, which Java and JavaScript use). */
    public boolean singleCall() {
        return this == SIMPLE || this == JAVA || this == JAVASCRIPT;
    }

    /**
     * The category of a BFCL file or id ({@code BFCL_v3_parallel.json}, {@code live_simple_3-1-0}, {@code java_0},
     * {@code BFCL_v4_simple_javascript.json}), or null.
     */
    public static CallCategory fromName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.contains("javascript")) return JAVASCRIPT;
        if (n.contains("java")) return JAVA;
        if (n.contains("parallel")) return PARALLEL;
        if (n.contains("multiple")) return MULTIPLE;
        if (n.contains("simple")) return SIMPLE;
        return null;
    }
}
