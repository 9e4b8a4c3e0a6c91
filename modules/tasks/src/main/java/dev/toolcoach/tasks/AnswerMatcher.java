package dev.toolcoach.tasks;

import java.math.BigDecimal;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Whether a final answer matches the gold one. When both texts give a number by the {@code numbers} rule,
 * the numbers decide; otherwise the {@code text} rule does. Every answer reward compares through one of these.
 *
 * @param numbers   how numbers are read and compared
 * @param tolerance the numbers' tolerance, absolute or relative as {@code numbers} says
 * @param text      how texts are compared when the numbers do not decide
 */
public record AnswerMatcher(Numbers numbers, double tolerance, Text text) {

    /** How numbers are read and compared. */
    public enum Numbers {
        /** Numbers are not read; only the text rule applies. */
        IGNORED,
        /** The last number of each text ({@link AnswerText#lastNumber}), within an absolute tolerance. */
        LAST_WITHIN_ABSOLUTE,
        /** The number each whole text states ({@link AnswerText#wholeNumber}), within a tolerance relative to the larger magnitude (so 0 only matches 0). */
        WHOLE_WITHIN_RELATIVE
    }

    /** How texts are compared. */
    public enum Text {
        /** Texts never match: without numbers on both sides there is no match. */
        NEVER,
        /** Equal as {@link AnswerText#lowerCaseWords}. */
        WORDS_EQUAL,
        /** The gold's {@link AnswerText#lowerCaseWords} appear as whole words in the answer's (a sentence naming it counts). */
        WORDS_MENTIONED,
        /** Equal as {@link AnswerText#squadNormalized} (NFKC, no punctuation, no articles). */
        SQUAD_EQUAL
    }

    public AnswerMatcher {
        Objects.requireNonNull(numbers, "numbers");
        Objects.requireNonNull(text, "text");
    }

    public boolean matches(String answer, String gold) {
        switch (numbers) {
            case LAST_WITHIN_ABSOLUTE -> {
                Optional<BigDecimal> a = AnswerText.lastNumber(answer);
                Optional<BigDecimal> g = AnswerText.lastNumber(gold);
                if (a.isPresent() && g.isPresent()) {
                    return a.get().subtract(g.get()).abs().compareTo(BigDecimal.valueOf(tolerance)) <= 0;
                }
            }
            case WHOLE_WITHIN_RELATIVE -> {
                OptionalDouble a = AnswerText.wholeNumber(answer);
                OptionalDouble g = AnswerText.wholeNumber(gold);
                if (a.isPresent() && g.isPresent()) {
                    double x = a.getAsDouble();
                    double y = g.getAsDouble();
                    return Math.abs(x - y) <= tolerance * Math.max(Math.abs(x), Math.abs(y));
                }
            }
            case IGNORED -> {
            }
        }
        return switch (text) {
            case NEVER -> false;
            case WORDS_EQUAL -> AnswerText.lowerCaseWords(answer).equals(AnswerText.lowerCaseWords(gold));
            case WORDS_MENTIONED -> {
                String g = AnswerText.lowerCaseWords(gold);
                yield !g.isEmpty() && (" " + AnswerText.lowerCaseWords(answer) + " ").contains(" " + g + " ");
            }
            case SQUAD_EQUAL -> AnswerText.squadNormalized(answer).equals(AnswerText.squadNormalized(gold));
        };
    }
}
