package dev.toolcoach.retrieval.lexical;

import java.util.regex.Pattern;

/**
 * Turns identifiers into words so they match natural-language queries:
 * {@code triangle_properties.get} → "triangle properties get", {@code getHTTPResponse} →
 * "get HTTP Response", {@code PublicHolidayV3} → "Public Holiday V 3".
 */
public final class IdentifierWords {

    private static final Pattern SEPARATORS = Pattern.compile("[_.\\-/:]+");
    // boundaries: lower→Upper, ACRONYM→Word, letter↔digit
    private static final Pattern CASE_BOUNDARY = Pattern.compile(
            "(?<=\\p{Ll})(?=\\p{Lu})|(?<=\\p{Lu})(?=\\p{Lu}\\p{Ll})|(?<=\\p{L})(?=\\p{N})|(?<=\\p{N})(?=\\p{L})");

    private IdentifierWords() {
    }

    public static String split(String text) {
        String spaced = SEPARATORS.matcher(text).replaceAll(" ");
        return CASE_BOUNDARY.matcher(spaced).replaceAll(" ");
    }
}
