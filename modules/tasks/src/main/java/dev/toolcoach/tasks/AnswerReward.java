package dev.toolcoach.tasks;

import dev.toolcoach.trace.Trace;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Answer correctness: 1 when the rollout's final answer matches the example's gold answer, else 0
 * (also 0 when the run ended without an answer).
 */
public final class AnswerReward implements TaskReward {

    private static final Pattern NUMBER = Pattern.compile("-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?");
    private static final Pattern THOUSANDS = Pattern.compile("(?<=\\d),(?=\\d{3}(?!\\d))");
    private static final Pattern NOT_WORD = Pattern.compile("[^\\p{L}\\p{N}@.]+");

    private enum Mode { NUMERIC, EXACT, MENTIONS }

    private final Mode mode;
    private final double tolerance;

    private AnswerReward(Mode mode, double tolerance) {
        this.mode = mode;
        this.tolerance = tolerance;
    }

    /** The last number in the answer ({@code $1,628.89} reads as 1628.89) within an absolute tolerance of the gold number. */
    public static AnswerReward numeric(double absoluteTolerance) {
        return new AnswerReward(Mode.NUMERIC, absoluteTolerance);
    }

    /** The answer equals the gold one ignoring case, punctuation and spacing. */
    public static AnswerReward exact() {
        return new AnswerReward(Mode.EXACT, 0);
    }

    /** The answer contains the gold one ignoring case, punctuation and spacing (a sentence naming it counts). */
    public static AnswerReward mentions() {
        return new AnswerReward(Mode.MENTIONS, 0);
    }

    @Override
    public double score(TaskExample example, Trace trace) {
        return trace.finalAnswer() != null && matches(trace.finalAnswer(), example.goldAnswer()) ? 1.0 : 0.0;
    }

    public boolean matches(String answer, String gold) {
        return switch (mode) {
            case NUMERIC -> lastNumber(answer).flatMap(a -> lastNumber(gold).map(g ->
                    a.subtract(g).abs().compareTo(BigDecimal.valueOf(tolerance)) <= 0)).orElse(false);
            case EXACT -> normalise(answer).equals(normalise(gold));
            case MENTIONS -> !normalise(gold).isEmpty() && (" " + normalise(answer) + " ").contains(" " + normalise(gold) + " ");
        };
    }

    static Optional<BigDecimal> lastNumber(String text) {
        Matcher m = NUMBER.matcher(THOUSANDS.matcher(text).replaceAll(""));
        String last = null;
        while (m.find()) last = m.group();
        return Optional.ofNullable(last).map(BigDecimal::new);
    }

    /** Lower case, words separated by single spaces; a sentence's final full stop is dropped. */
    static String normalise(String text) {
        String words = NOT_WORD.matcher(text.toLowerCase(Locale.ROOT)).replaceAll(" ").trim();
        return words.endsWith(".") ? words.substring(0, words.length() - 1).trim() : words;
    }
}
