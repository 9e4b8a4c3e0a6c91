package dev.toolcoach.tasks;

import java.math.BigDecimal;
import java.text.Normalizer;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** How answers are read for comparison: two text normalisations and two ways to find the number an answer gives. */
public final class AnswerText {

    private static final Set<String> ARTICLES = Set.of("a", "an", "the");
    private static final Pattern PUNCTUATION = Pattern.compile("[\\p{P}\\p{S}]");
    private static final Pattern PLAIN_NUMBER = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern GROUPED_NUMBER = Pattern.compile("[+-]?\\d{1,3}(,\\d{3})+(\\.\\d+)?");
    private static final Pattern ANY_NUMBER = Pattern.compile("-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?");
    private static final Pattern THOUSANDS = Pattern.compile("(?<=\\d),(?=\\d{3}(?!\\d))");
    private static final Pattern NOT_WORD = Pattern.compile("[^\\p{L}\\p{N}@.]+");

    private AnswerText() {
    }

    /** SQuAD style: NFKC, lower case, no punctuation or articles, single spaces. */
    public static String squadNormalized(String text) {
        String s = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        s = PUNCTUATION.matcher(s).replaceAll(" ");
        return String.join(" ", tokensOf(s));
    }

    /** The SQuAD-normalised words of a text. */
    public static List<String> squadTokens(String text) {
        return tokensOf(squadNormalized(text));
    }

    private static List<String> tokensOf(String s) {
        return Arrays.stream(s.strip().split("\\s+")).filter(w -> !w.isEmpty() && !ARTICLES.contains(w)).toList();
    }

    /**
     * Lower case, words separated by single spaces, keeping {@code @} and {@code .} so e-mail addresses and
     * decimals stay whole; a sentence's final full stop is dropped.
     */
    public static String lowerCaseWords(String text) {
        String words = NOT_WORD.matcher(text.toLowerCase(Locale.ROOT)).replaceAll(" ").trim();
        return words.endsWith(".") ? words.substring(0, words.length() - 1).trim() : words;
    }

    /**
     * The number a whole answer states, allowing a currency sign, a percent sign, thousands
     * separators and a final period ("$1,234.50", "12%", "42."); empty when it is not just a number.
     */
    public static OptionalDouble wholeNumber(String text) {
        String s = text.strip();
        if (s.endsWith(".")) s = s.substring(0, s.length() - 1);
        if (s.endsWith("%")) s = s.substring(0, s.length() - 1).strip();
        if (!s.isEmpty() && "$€£".indexOf(s.charAt(0)) >= 0) s = s.substring(1).strip();
        if (GROUPED_NUMBER.matcher(s).matches()) s = s.replace(",", "");
        if (!PLAIN_NUMBER.matcher(s).matches()) return OptionalDouble.empty();
        return OptionalDouble.of(Double.parseDouble(s));
    }

    /** The last number anywhere in a text ({@code $1,628.89} reads as 1628.89), exactly as written. */
    public static Optional<BigDecimal> lastNumber(String text) {
        Matcher m = ANY_NUMBER.matcher(THOUSANDS.matcher(text).replaceAll(""));
        String last = null;
        while (m.find()) last = m.group();
        return Optional.ofNullable(last).map(BigDecimal::new);
    }
}
