package dev.toolcoach.tools.skills;

import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SequenceMinerTest {

    private static SkillTrajectory trajectory(String id, String... tools) {
        return new SkillTrajectory(id, Arrays.stream(tools).map(t -> t.startsWith("!")
                ? ToolResult.failed(new ToolCall(t.substring(1), Map.of()), ToolResult.Status.ERROR, "no", 0)
                : ToolResult.ok(new ToolCall(t, Map.of()), "ok", null, 0, false)).toList());
    }

    @Test
    void keepsSequencesOfTheMinimumLengthInEnoughTrajectoriesCountingEachTrajectoryOnce() {
        List<CallPattern> patterns = new SequenceMiner(3, 3, 3).mine(List.of(
                trajectory("t1", "a", "b", "c", "a", "b", "c"),
                trajectory("t2", "x", "a", "b", "c"),
                trajectory("t3", "a", "b", "c", "y"),
                trajectory("t4", "a", "b", "y")));
        assertEquals(List.of(List.of("a", "b", "c")), patterns.stream().map(CallPattern::tools).toList());
        assertEquals(List.of("t1", "t2", "t3"), patterns.get(0).occurrences().stream().map(CallPattern.Occurrence::trajectoryId).toList());
        assertEquals(1, patterns.get(0).occurrences().get(1).start());
    }

    @Test
    void lowersTheBarsWhenConfiguredAndDropsPatternsInsideALongerOneWithTheSameSupport() {
        List<CallPattern> patterns = new SequenceMiner(2, 4, 2).mine(List.of(
                trajectory("t1", "a", "b", "c"),
                trajectory("t2", "a", "b", "c"),
                trajectory("t3", "a", "b")));
        // a,b is in three; b,c only inside a,b,c with the same support of two
        assertEquals(List.of(List.of("a", "b"), List.of("a", "b", "c")), patterns.stream().map(CallPattern::tools).toList());
    }

    @Test
    void aFailedCallBreaksASequence() {
        assertTrue(new SequenceMiner(2, 3, 2).mine(List.of(
                trajectory("t1", "a", "!b", "c"),
                trajectory("t2", "a", "!b", "c"))).isEmpty());
    }

    @Test
    void refusesSettingsThatMakeNoSense() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new SequenceMiner(1, 3, 3)).getMessage()
                .contains("min length must be at least 2"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new SequenceMiner(3, 2, 3)).getMessage()
                .contains("max length 2 is below min length 3"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new SequenceMiner(3, 3, 0)).getMessage().contains("min support"));
    }

    @Test
    void noveltyIsOneMinusTheClosestKnownSequence() {
        assertEquals(1.0, Novelty.score(List.of("a", "b", "c"), List.of()));
        assertEquals(0.0, Novelty.score(List.of("a", "b", "c"), List.of(List.of("a", "b", "c"))));
        assertEquals(1 / 3.0, Novelty.score(List.of("a", "b", "c"), List.of(List.of("a", "c"), List.of("x"))), 1e-9);
    }
}
