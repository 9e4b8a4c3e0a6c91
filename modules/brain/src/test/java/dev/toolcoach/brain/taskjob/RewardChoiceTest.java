package dev.toolcoach.brain.taskjob;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.brain.endpoint.OutboundEndpoints;
import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.synthetic.FinanceTask;
import dev.toolcoach.testkit.SharedData;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A reward chosen by name: each kind, what it fits, and a one-line refusal for what it does not. */
class RewardChoiceTest {
    private static final Task FINANCE = FinanceTask.create(10, 1);
    private static final RewardContext NUMBER = RewardContext.of("q", "how much?", "1,628.89");
    private static final RewardContext CITY = RewardContext.of("q", "where?", "New York");

    @Test
    void answerRewardsMatchTheFinalAnswer() {
        assertEquals(1.0, score("exact", "new york.", CITY), "case and punctuation ignored");
        assertEquals(0.0, score("exact", "in New York", CITY));
        assertEquals(1.0, score("mentions", "It is in New York.", CITY));
        assertEquals(1.0, score("numeric", "$1,628.89", NUMBER));
        assertEquals(0.0, score("numeric", "$1,628.90", NUMBER));
        assertEquals(1.0, score("numeric:0.05", "$1,628.90", NUMBER));
        assertEquals(1.0, score("short-answer", "1628.89", NUMBER), "a RewardProvider on the classpath, by its name");
        assertEquals(0.0, score("short-answer", "a long answer", NUMBER));
    }

    @Test
    void aNameOutsideTheListIsOneLineNamingWhatThereIs() {
        String unknown = assertThrows(IllegalArgumentException.class, () -> new RewardChoice("accuracy")).getMessage();
        assertEquals("unknown reward 'accuracy': use task, call-match, exact, mentions, numeric[:TOLERANCE], the http(s) URL of a "
                + "reward server, or a RewardProvider's name (on the classpath: short-answer)", unknown);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new RewardChoice("numeric:x")).getMessage()
                .contains("needs a number, got 'x'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new RewardChoice("numeric:-1")).getMessage()
                .contains("finite tolerance of 0 or more"));
    }

    @Test
    void aRewardThatDoesNotFitTheTaskIsRefusedBeforeAnythingRuns() {
        Task calls = JobDataset.read(SharedData.require("toolcall/toolalpaca_xlam_format.json")).asTask();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new RewardChoice("call-match").check(FINANCE, OutboundEndpoints.none()))
                .getMessage().startsWith("reward call-match scores calls against gold calls, which task 'finance' does not name"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new RewardChoice("exact").check(calls, OutboundEndpoints.none()))
                .getMessage().endsWith("is gold calls: use call-match"));
        new RewardChoice("call-match").check(calls, OutboundEndpoints.none());
        assertEquals("reward is not an endpoint this node may call (its toolcoach.jobs.endpoints lists those it may)",
                assertThrows(IllegalArgumentException.class, () -> new RewardChoice("http://127.0.0.1:9/score")
                        .check(FINANCE, OutboundEndpoints.none())).getMessage());
        new RewardChoice("http://127.0.0.1:9/score").check(FINANCE,
                OutboundEndpoints.named(List.of("http://127.0.0.1:9/score"), ""));
    }

    @Test
    void theChoiceIsItsNameInAConfigAndReadsBack() throws Exception {
        ObjectMapper json = new ObjectMapper();
        assertEquals("\"numeric:0.5\"", json.writeValueAsString(new RewardChoice(" numeric:0.5 ")));
        assertEquals(new RewardChoice("call-match"), json.readValue("\"call-match\"", RewardChoice.class));
        assertTrue(RewardChoice.task().isTask());
    }

    private static double score(String reward, String answer, RewardContext gold) {
        Trace trace = new Trace("r", "g", "q", "what?", List.of(), null, answer, Termination.ANSWER, null, 0, 0, Map.of());
        return new RewardChoice(reward).evaluation(FINANCE, ActionFormat.TOOL_N1_COMPACT, OutboundEndpoints.none()).score(trace, gold);
    }
}
