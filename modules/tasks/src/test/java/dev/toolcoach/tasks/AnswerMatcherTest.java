package dev.toolcoach.tasks;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AnswerMatcherTest {

    private static final AnswerMatcher LAST_NUMBER = new AnswerMatcher(AnswerMatcher.Numbers.LAST_WITHIN_ABSOLUTE, 0.01,
            AnswerMatcher.Text.NEVER);
    private static final AnswerMatcher SQUAD = new AnswerMatcher(AnswerMatcher.Numbers.WHOLE_WITHIN_RELATIVE, 1e-4,
            AnswerMatcher.Text.SQUAD_EQUAL);

    @Test
    void theLastNumberAnywhereDecidesWithinAnAbsoluteTolerance() {
        assertTrue(LAST_NUMBER.matches("The total is $1,628.89", "1628.885"));
        assertFalse(LAST_NUMBER.matches("The total is 1628.8", "1628.89"));
        assertFalse(LAST_NUMBER.matches("no number", "no number"), "without numbers nothing matches");
    }

    @Test
    void aWholeNumberDecidesRelativelyElseTheSquadTextDoes() {
        assertTrue(SQUAD.matches("$1,234.50", "1234.5"));
        assertFalse(SQUAD.matches("0.0001", "0"), "0 only matches 0");
        assertTrue(SQUAD.matches("The Eiffel Tower!", "eiffel tower"));
        assertFalse(SQUAD.matches("about 12", "12"), "a sentence is not a whole number, and its text differs");
    }

    @Test
    void wordsAreComparedWholeKeepingAddresses() {
        AnswerMatcher mentioned = new AnswerMatcher(AnswerMatcher.Numbers.IGNORED, 0, AnswerMatcher.Text.WORDS_MENTIONED);
        assertTrue(mentioned.matches("Sent by phillip.allen@enron.com.", "phillip.allen@enron.com"));
        assertFalse(mentioned.matches("Sent by allen@enron.com", "phillip.allen@enron.com"));
        assertFalse(mentioned.matches("anything", "  "), "an empty gold is never mentioned");
    }
}
