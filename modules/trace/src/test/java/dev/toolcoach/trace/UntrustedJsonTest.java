package dev.toolcoach.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class UntrustedJsonTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    record Row(String id, List<Integer> counts) {
        Row {
            if (counts != null && counts.stream().anyMatch(c -> c < 0)) {
                throw new IllegalArgumentException("counts must not be negative, was " + counts.stream().filter(c -> c < 0).findFirst().orElseThrow());
            }
        }
    }

    @Test
    void nestingUpToTheLimitIsReadAndOneLevelMoreIsRefused() throws Exception {
        assertEquals(64, depth(UntrustedJson.readTree(JSON, "[".repeat(64) + "]".repeat(64), 64).toString()));
        UntrustedJson.TooDeep e = assertThrows(UntrustedJson.TooDeep.class,
                () -> UntrustedJson.readTree(JSON, "{\"a\":".repeat(65) + "1" + "}".repeat(65), 64));
        assertEquals("JSON is nested deeper than 64 levels", e.getOriginalMessage());
        // 200 KB of openings: refused by the scan, where a recursive reader or writer would overflow the stack
        assertThrows(UntrustedJson.TooDeep.class, () -> UntrustedJson.readTree(JSON, "[".repeat(200_000), 64));
    }

    @Test
    void textThatIsNotJsonFailsInTheRealReadAsBefore() {
        JsonProcessingException e = assertThrows(JsonProcessingException.class,
                () -> UntrustedJson.readValue(JSON, "{\"id\": [1,", Map.class, 64));
        assertFalse(e instanceof UntrustedJson.TooDeep);
    }

    @Test
    void reasonsNameThePlaceAndKindButQuoteNothing() {
        JsonProcessingException syntax = assertThrows(JsonProcessingException.class,
                () -> UntrustedJson.readValue(JSON, "hunter2 password", Row.class, 64));
        assertEquals("not valid JSON at column 8", UntrustedJson.reason(syntax));
        JsonProcessingException type = assertThrows(JsonProcessingException.class,
                () -> UntrustedJson.readValue(JSON, "{\"id\": \"a\", \"counts\": [1, \"hunter2\"]}", Row.class, 64));
        assertEquals("field counts[1] is missing or has the wrong type", UntrustedJson.reason(type));
        JsonProcessingException secondLine = assertThrows(JsonProcessingException.class,
                () -> UntrustedJson.readValue(JSON, "{\"id\": \"a\",\n  hunter2}", Row.class, 64));
        assertEquals("not valid JSON at line 2, column 4", UntrustedJson.reason(secondLine));
    }

    /** A value a type of ours refuses in its constructor is named by that type's one line, at the field's path. */
    @Test
    void aValueOurTypeRefusesIsItsOwnOneLineAtTheField() {
        JsonProcessingException refused = assertThrows(JsonProcessingException.class,
                () -> UntrustedJson.readValue(JSON, "{\"id\": \"a\", \"counts\": [-1]}", Row.class, 64));
        assertEquals("counts must not be negative, was -1", UntrustedJson.reason(refused));
    }

    private static int depth(String json) {
        int depth = 0;
        int max = 0;
        for (char c : json.toCharArray()) {
            if (c == '[') max = Math.max(max, ++depth);
            if (c == ']') depth--;
        }
        return max;
    }
}
