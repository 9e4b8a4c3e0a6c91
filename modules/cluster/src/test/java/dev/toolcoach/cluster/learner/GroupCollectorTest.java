package dev.toolcoach.cluster.learner;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GroupCollectorTest {
    @Test
    void groupsCompleteWhenAllTracesArriveAndLeaveInCompletionOrder() {
        GroupCollector collector = new GroupCollector(2, 4);
        assertEquals(Admission.WAITING, collector.offer(TestTraces.generated("a1", "a", "x", 0), 0));
        assertEquals(Admission.WAITING, collector.offer(TestTraces.generated("b1", "b", "x", 0), 0));
        assertEquals(Admission.GROUP_READY, collector.offer(TestTraces.generated("b2", "b", "x", 0), 0));
        assertEquals(Admission.GROUP_READY, collector.offer(TestTraces.generated("a2", "a", "x", 0), 0));

        List<CompleteGroup> first = collector.takeReady(1);
        assertEquals("b", first.get(0).groupId(), "b completed first");
        assertEquals(List.of("b1", "b2"), first.get(0).traces().stream().map(t -> t.rolloutId()).toList());
        assertEquals("a", collector.takeReady(5).get(0).groupId());
        assertEquals(0, collector.readyCount());
        assertEquals(0, collector.openCount());
    }

    @Test
    void duplicateRolloutsAreDiscardedAndCountedBeforeAndAfterTheGroupCloses() {
        GroupCollector collector = new GroupCollector(2, 4);
        collector.offer(TestTraces.generated("a1", "a", "x", 0), 0);
        assertEquals(Admission.DUPLICATE, collector.offer(TestTraces.generated("a1", "a", "x", 0), 0));
        assertEquals(Admission.GROUP_READY, collector.offer(TestTraces.generated("a2", "a", "x", 0), 0));
        assertEquals(Admission.DUPLICATE, collector.offer(TestTraces.generated("a2", "a", "x", 0), 0), "late re-dispatch");

        assertEquals(1, collector.takeReady(10).size(), "the group is handed out once");
    }

    @Test
    void aGroupWhoseOldestTokenIsBeyondTheLagIsDroppedNeverHandedOut() {
        GroupCollector collector = new GroupCollector(2, 2);
        // oldest generated token is version 3 (the prompt's -1 is ignored); at policy 5 the lag is exactly 2
        collector.offer(TestTraces.generated("a1", "a", "x", 3, 4), 5);
        assertEquals(Admission.GROUP_READY, collector.offer(TestTraces.generated("a2", "a", "x", 5), 5));
        collector.offer(TestTraces.generated("b1", "b", "x", 4), 6);
        assertEquals(Admission.GROUP_STALE, collector.offer(TestTraces.generated("b2", "b", "x", 6, 3), 6));

        assertEquals(List.of("a"), collector.takeReady(10).stream().map(CompleteGroup::groupId).toList());
    }

    @Test
    void aGroupHoldingATraceWithoutGeneratedTokensIsDroppedAsUnusable() {
        GroupCollector collector = new GroupCollector(2, 0);
        collector.offer(TestTraces.promptOnly("a1", "a"), 7);
        assertEquals(Admission.GROUP_UNUSABLE, collector.offer(TestTraces.generated("a2", "a", "x", 7), 7));

        assertEquals(0, collector.readyCount());
    }

    @Test
    void aShuffledStreamWithResentRolloutsJudgesEveryGroupExactlyOnce() {
        int groups = 30;
        int size = 3;
        int maxLag = 2;
        Random random = new Random(7);
        Map<String, Integer> sampledBy = new HashMap<>();
        record Send(String rolloutId, String groupId) {
        }
        List<Send> sends = new ArrayList<>();
        int resent = 0;
        for (int g = 0; g < groups; g++) {
            sampledBy.put("g" + g, random.nextInt(8));
            for (int i = 0; i < size; i++) {
                sends.add(new Send("g" + g + "/" + i, "g" + g));
                if (random.nextInt(10) < 3) {
                    sends.add(new Send("g" + g + "/" + i, "g" + g));
                    resent++;
                }
            }
        }
        Collections.shuffle(sends, random);

        GroupCollector collector = new GroupCollector(size, maxLag);
        List<String> judged = new ArrayList<>();
        List<String> readyInOrder = new ArrayList<>();
        int duplicates = 0;
        for (int n = 0; n < sends.size(); n++) {
            int current = n / 10; // the policy moves on while traces stream in
            String groupId = sends.get(n).groupId();
            Admission admission = collector.offer(
                    TestTraces.generated(sends.get(n).rolloutId(), groupId, "x", sampledBy.get(groupId)), current);
            if (admission == Admission.DUPLICATE) duplicates++;
            if (admission == Admission.GROUP_READY || admission == Admission.GROUP_STALE) {
                judged.add(groupId);
                boolean tooOld = current - sampledBy.get(groupId) > maxLag;
                assertEquals(tooOld ? Admission.GROUP_STALE : Admission.GROUP_READY, admission, groupId + " at " + current);
                if (!tooOld) readyInOrder.add(groupId);
            }
        }

        assertEquals(groups, judged.size());
        assertEquals(groups, judged.stream().distinct().count(), "no group is judged twice");
        assertEquals(readyInOrder, collector.takeReady(groups).stream().map(CompleteGroup::groupId).toList());
        assertEquals(resent, duplicates, "every resent rollout, and nothing else, is a duplicate");
        assertTrue(readyInOrder.size() < groups && !readyInOrder.isEmpty(), "the seed gives both outcomes");
    }

    @Test
    void badSettingsAndTracesWithoutAGroupAreRefusedClearly() {
        assertThrows(IllegalArgumentException.class, () -> new GroupCollector(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new GroupCollector(2, -1));
        GroupCollector collector = new GroupCollector(2, 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> collector.offer(TestTraces.generated("r9", null, "x", 0), 0));
        assertEquals("trace of rollout r9 has no group id", e.getMessage());
    }
}
