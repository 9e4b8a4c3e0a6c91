package dev.toolcoach.agent;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ActionTagTest {

    @Test
    void blockSoFarHoldsBackAPartialClosingTag() {
        assertNull(ActionTag.ANSWER.soFar("<thi"));
        assertEquals("abc", ActionTag.ANSWER.soFar("<answer>abc</an"));
        assertEquals("abc</anx", ActionTag.ANSWER.soFar("<answer>abc</anx"));
        assertEquals("abc", ActionTag.ANSWER.soFar("<answer> abc </answer> tail"));
    }
}
