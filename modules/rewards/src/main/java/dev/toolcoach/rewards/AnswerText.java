package dev.toolcoach.rewards;

import java.text.Normalizer;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.regex.Pattern;

/** How answers are compared: SQuAD-style text normalisation, and numbers read from plain answers. */
public final class AnswerText {

    private static final Set<String> ARTICLES = Set.of("a", "an", "the");
    private static final Pattern PUNCTUATION = Pattern.compile("[\\p{P}\\p{S}]");
    private static final Pattern PLAIN_NUMBER = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern GROUPED_NUMBER = Pattern.compile("[+-]?\\d{1,3}(,\\d{3})+(\\.\\d+)?");

    private AnswerText() {
    }

    /** Lower case, no punctuation or articles, single spaces. */
    public static String normalize(String text) {
        String s = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        s = PUNCTUATION.matcher(s).replaceAll(" ");
        return String.join(" ", tokensOf(s));
    }

    /** The normalised words of a text. */
    public static List<String> tokens(String text) {
        return tokensOf(normalize(text));
    }

    private static List<String> tokensOf(String s) {
        return Arrays.stream(s.strip().split("\\s+")).filter(w -> !w.isEmpty() && !ARTICLES.contains(w)).toList();
    }

    /**
     * The number a whole answer states, allowing a currency sign, a percent sign, thousands
     * separators and a final period ("$1,234.50", "12%", "42."); empty when it is not just a number.
     */
    public static OptionalDouble number(String text) {
        String s = text.strip();
        if (s.endsWith(".")) s = s.substring(0, s.length() - 1);
        if (s.endsWith("%")) s = s.substring(0, s.length() - 1).strip();
        if (!s.isEmpty() && "$€£".indexOf(s.charAt(0)) >= 0) s = s.substring(1).strip();
        if (GROUPED_NUMBER.matcher(s).matches()) s = s.replace(",", "");
        if (!PLAIN_NUMBER.matcher(s).matches()) return OptionalDouble.empty();
        return OptionalDouble.of(Double.parseDouble(s));
    }

    /** Numbers within a relative tolerance of the larger magnitude (so 0 only matches 0). */
    public static boolean closeEnough(double a, double b, double relativeTolerance) {
        return Math.abs(a - b) <= relativeTolerance * Math.max(Math.abs(a), Math.abs(b));
    }
}
