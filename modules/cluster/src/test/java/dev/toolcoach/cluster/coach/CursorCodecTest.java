package dev.toolcoach.cluster.coach;

import dev.toolcoach.cluster.protocol.CoachProtocol.CoachCursor;
import dev.toolcoach.cluster.protocol.GroupCounts;
import dev.toolcoach.cluster.protocol.CoachProtocol.GroupDropped;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CursorCodecTest {
    /** The bytes CursorCodec wrote for {@link #cursor()} when the policy version was a {@code long}. */
    private static final String WRITTEN_BEFORE_INT_VERSIONS = "{\"nextExample\":12,\"epoch\":1,\"nextGroup\":40,"
            + "\"openGroups\":[{\"groupId\":\"g-38\",\"exampleIndex\":10,\"queryId\":\"q-10\"}],\"policyVersion\":9,"
            + "\"groupsTrained\":30,\"groupsCompleted\":28,"
            + "\"groupsDropped\":{\"STALE_POLICY\":2,\"UNUSABLE\":0,\"REWARD_FAILED\":0}}";

    private static CoachCursor cursor() {
        return new CoachCursor(12, 1, 40, List.of(new CoachCursor.OpenGroup("g-38", 10, "q-10")), 9, 30, 28,
                GroupCounts.of(Map.of(GroupDropped.Reason.STALE_POLICY, 2L)));
    }

    @Test
    void readsACursorCheckpointedBeforeVersionsWereInts() {
        assertEquals(cursor(), CursorCodec.decode(WRITTEN_BEFORE_INT_VERSIONS.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void writesTheSameBytesAsBeforeWithTheRedispatchLimitAndNoSignalReasonsAdded() {
        assertEquals(WRITTEN_BEFORE_INT_VERSIONS.replace("\"REWARD_FAILED\":0}",
                        "\"REWARD_FAILED\":0,\"REDISPATCH_LIMIT\":0,\"NO_SIGNAL\":0}"),
                new String(CursorCodec.encode(cursor()), StandardCharsets.UTF_8));
    }
}
