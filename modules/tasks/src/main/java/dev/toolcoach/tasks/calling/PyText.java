package dev.toolcoach.tasks.calling;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Python's string semantics that BFCL's Java and JavaScript type converters rely on: {@code re} patterns ({@code .}
 * and {@code $} know only {@code \n} as a line end; {@code \s}, {@code \w} and {@code \d} are Unicode), {@code strip},
 * {@code split}, {@code s[1:-1]}, and {@code int()}/{@code float()} of a string, which the converters use to tell
 * numbers from other text.
 */
final class PyText {

    private static final int FLAGS = Pattern.UNIX_LINES | Pattern.UNICODE_CHARACTER_CLASS;
    private static final Pattern INT = pattern("[+-]?\\d(_?\\d)*");
    private static final Pattern FLOAT = pattern(
            "[+-]?((\\d(_?\\d)*)(\\.(\\d(_?\\d)*)?)?|\\.\\d(_?\\d)*)([eE][+-]?\\d(_?\\d)*)?");
    private static final Pattern NON_FINITE = pattern("(?i)[+-]?(inf|infinity|nan)");

    private PyText() {
    }

    /** A pattern as Python's {@code re} reads it. */
    static Pattern pattern(String regex) {
        return Pattern.compile(regex, FLAGS);
    }

    /** A pattern as Python's {@code re} reads it with {@code re.DOTALL}. */
    static Pattern dotAll(String regex) {
        return Pattern.compile(regex, FLAGS | Pattern.DOTALL);
    }

    /** {@code s.strip()}: Python's whitespace, which includes the no-break spaces Java leaves. */
    static String strip(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && isSpace(s.charAt(start))) start++;
        while (end > start && isSpace(s.charAt(end - 1))) end--;
        return s.substring(start, end);
    }

    /** {@code s.strip(chars)}. */
    static String strip(String s, String chars) {
        int start = 0;
        int end = s.length();
        while (start < end && chars.indexOf(s.charAt(start)) >= 0) start++;
        while (end > start && chars.indexOf(s.charAt(end - 1)) >= 0) end--;
        return s.substring(start, end);
    }

    /** {@code s.split(sep)}: every piece, empty ones included. */
    static List<String> split(String s, String sep) {
        return Arrays.asList(s.split(Pattern.quote(sep), -1));
    }

    /** {@code s[1:-1]}: the text between its first and last character. */
    static String inner(String s) {
        return s.length() < 2 ? "" : s.substring(1, s.length() - 1);
    }

    /** {@code s[:-1]}. */
    static String dropLast(String s) {
        return s.isEmpty() ? s : s.substring(0, s.length() - 1);
    }

    /** Python's {@code int(s)} (a Long, or a BigInteger past its range), or null where Python raises ValueError. */
    static Number toInt(String s) {
        String t = strip(s);
        if (!INT.matcher(t).matches()) return null;
        BigInteger n = new BigInteger(asciiDigits(t));
        return n.bitLength() < 64 ? (Number) n.longValue() : n;
    }

    /** Python's {@code float(s)}, or null where Python raises ValueError. */
    static Double toFloat(String s) {
        String t = strip(s);
        if (NON_FINITE.matcher(t).matches()) {
            String word = t.toLowerCase(Locale.ROOT);
            if (word.endsWith("nan")) return Double.NaN;
            return word.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        return FLOAT.matcher(t).matches() ? Double.parseDouble(asciiDigits(t)) : null;
    }

    /** The number Python reads from the text, else the text itself (what {@code try: int(s) ... except} falls to). */
    static Object numberOr(Number n, String text) {
        return n == null ? text : n;
    }

    private static String asciiDigits(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '_') continue;
            out.append(Character.isDigit(c) ? (char) ('0' + Character.digit(c, 10)) : c);
        }
        return out.toString();
    }

    private static boolean isSpace(char c) {
        return Character.isWhitespace(c) || c == '\u00A0' || c == '\u2007' || c == '\u202F' || c == '\u0085';
    }
}
