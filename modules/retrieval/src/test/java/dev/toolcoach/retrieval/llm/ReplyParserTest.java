package dev.toolcoach.retrieval.llm;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplyParserTest {

    private final ReplyParser parser = new ReplyParser(List.of("get_weather", "get", "math.sqrt", "sqrt", "sendEmail"));

    @Test
    void readsABareJsonList() {
        ParsedReply r = parser.parse("[\"sendEmail\", \"get_weather\"]");
        assertEquals(new ParsedReply(List.of("sendEmail", "get_weather"), List.of(), ReplyForm.JSON_LIST), r);
        assertTrue(r.usable());
    }

    @Test
    void readsAJsonListInsideProseOrACodeFenceAfterThinking() {
        String reply = "<think>maybe [\"get\"]?</think>Sure! The tools are:\n```json\n[\"math.sqrt\"]\n```\nHope that helps.";
        assertEquals(List.of("math.sqrt"), parser.parse(reply).names());
    }

    @Test
    void readsTheListFieldOfAnObjectAndObjectsWithNames() {
        assertEquals(List.of("get", "sqrt"), parser.parse("{\"reason\": \"x\", \"tools\": [\"get\", \"sqrt\"]}").names());
        assertEquals(List.of("sendEmail"), parser.parse("[{\"name\": \"sendEmail\", \"why\": \"mail\"}]").names());
    }

    @Test
    void matchesIgnoringCaseAndCallParenthesesAndCountsUnknownNames() {
        ParsedReply r = parser.parse("[\"GET_WEATHER\", \"sendEmail()\", \"book_flight\", 7, \"get_weather\"]");
        assertEquals(List.of("get_weather", "sendEmail"), r.names());
        assertEquals(List.of("book_flight", "7"), r.unknown());
        assertTrue(r.usable());
    }

    @Test
    void anEmptyListIsAUsableAnswerButOnlyUnknownNamesIsNot() {
        assertTrue(parser.parse("[]").usable());
        ParsedReply hallucinated = parser.parse("[\"book_flight\"]");
        assertFalse(hallucinated.usable());
        assertEquals(List.of("book_flight"), hallucinated.unknown());
    }

    @Test
    void picksWholeNamesOutOfFreeTextInOrderOfMention() {
        ParsedReply r = parser.parse("You should call `sendEmail` after math.sqrt; `book_flight` is not needed.");
        assertEquals(ReplyForm.FREE_TEXT, r.form());
        // neither "sqrt" inside "math.sqrt" nor "get" is mentioned on its own
        assertEquals(List.of("sendEmail", "math.sqrt"), r.names());
        assertEquals(List.of("book_flight"), r.unknown());
    }

    @Test
    void aTruncatedJsonListIsSalvagedAsFreeText() {
        ParsedReply r = parser.parse("[\"get_weather\", \"sendEm");
        assertEquals(new ParsedReply(List.of("get_weather"), List.of(), ReplyForm.FREE_TEXT), r);
    }

    @Test
    void repliesNamingNoCandidateAreUnusable() {
        for (String reply : new String[] {"I cannot help with that.", "", null, "{\"ok\": true}"}) {
            ParsedReply r = parser.parse(reply);
            assertEquals(ReplyForm.NONE, r.form(), String.valueOf(reply));
            assertFalse(r.usable(), String.valueOf(reply));
        }
    }
}
