package dev.toolcoach.cluster.job;

import dev.toolcoach.cluster.learner.LearnerSettings;
import dev.toolcoach.cluster.protocol.CoachProtocol.CoachCursor;
import dev.toolcoach.cluster.protocol.CoachProtocol.GroupDropped;
import dev.toolcoach.cluster.protocol.GroupCounts;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GroupPlanTest {

    @Test
    void aJobsPlanCountsItsGroupsFromItsStepsAndSamplesDynamicallyAboveOneTimesThem() {
        GroupPlan plan = GroupPlan.of(8, 4, 1, 60, 3);
        assertEquals(new GroupPlan(8, 4, 1, 240, 720), plan);
        assertTrue(plan.dynamicSampling());
        assertEquals(8, plan.maxGroupsInFlight(), "(lag + 1) × groups per step");
        assertFalse(GroupPlan.of(8, 4, 0, 60, 1).dynamicSampling());
    }

    @Test
    void badNumbersAreRefusedNamingTheSetting() {
        assertEquals("group size must be at least 1, was 0",
                assertThrows(IllegalArgumentException.class, () -> GroupPlan.of(0, 4, 1, 60, 1)).getMessage());
        assertEquals("max policy lag must be 0 or more, was -1",
                assertThrows(IllegalArgumentException.class, () -> GroupPlan.of(8, 4, -1, 60, 1)).getMessage());
        assertEquals("steps must be at least 1, was 0",
                assertThrows(IllegalArgumentException.class, () -> GroupPlan.of(8, 4, 1, 0, 1)).getMessage());
        assertEquals("sample limit must be at least the group limit 10, was 9",
                assertThrows(IllegalArgumentException.class, () -> new GroupPlan(8, 4, 1, 10, 9)).getMessage());
    }

    @Test
    void aResumedLearnerStartsFromTheGroupsTheCoachsCursorHadClosed() {
        GroupPlan plan = GroupPlan.of(4, 2, 0, 10, 2);
        CoachCursor cursor = new CoachCursor(7, 0, 9, List.of(), 3, 6, 6, GroupCounts.of(Map.of(GroupDropped.Reason.STALE_POLICY, 2L)));
        assertEquals(new LearnerSettings(plan, 8, 2), LearnerSettings.of(plan, Optional.of(cursor)));
        assertEquals(new LearnerSettings(plan, 0, 0), LearnerSettings.of(plan, Optional.empty()));
    }
}
