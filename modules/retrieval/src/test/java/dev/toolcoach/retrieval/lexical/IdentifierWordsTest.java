package dev.toolcoach.retrieval.lexical;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class IdentifierWordsTest {

    @Test
    void splitsSnakeCaseDotsCamelCaseAcronymsAndDigits() {
        assertEquals("triangle properties get", IdentifierWords.split("triangle_properties.get"));
        assertEquals("get HTTP Response", IdentifierWords.split("getHTTPResponse"));
        assertEquals("Public Holiday V 3", IdentifierWords.split("PublicHolidayV3"));
        assertEquals("plain words stay", IdentifierWords.split("plain words stay"));
    }
}
