package dev.toolcoach.rewards.judge;

import dev.toolcoach.openai.BackendRequest;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.openai.OpenAiConfig;
import dev.toolcoach.openai.OpenAiServer;
import dev.toolcoach.testkit.FreePorts;
import dev.toolcoach.testkit.ScriptedBackend;
import dev.toolcoach.testkit.ScriptedServer;
import dev.toolcoach.openai.ServerSettings;
import dev.toolcoach.rewards.GroupOutcome;
import dev.toolcoach.rewards.RewardUnavailableException;
import dev.toolcoach.rewards.TraceBuilder;
import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The judge talks to the real OpenAI-compatible server over loopback; the judge model is scripted. */
class JudgeEndToEndTest {

    private static final String QUERY = "Who sent the budget email on 2001-05-14?";
    private static final RewardContext EXAMPLE = RewardContext.of("enron-17", QUERY, "Phillip Allen");

    @RegisterExtension
    private static final ScriptedServer server = ScriptedServer.start("judge-70b");
    private static final ScriptedBackend judgeModel = server.backend();

    @BeforeEach
    void freshScript() {
        judgeModel.reset();
    }

    private RankingJudge judge(JudgeMode mode) {
        OpenAiClient client = new OpenAiClient(OpenAiConfig.of(server.baseUrl(), "judge-70b")
                .withRetries(0, Duration.ofMillis(10), Duration.ofMillis(10)));
        // scripted replies rank by position, so these tests show the group in its own order
        return new RankingJudge(client, JudgeSettings.defaults(mode).withShuffle(false));
    }

    private static List<Trace> group() {
        String longMail = "From: phillip.allen@enron.com Subject: budget " + "lorem ipsum ".repeat(100);
        return List.of(
                TraceBuilder.rollout("r1", QUERY)
                        .call("search the mailbox", "search_emails", Map.of("keywords", List.of("budget"), "date", "2001-05-14"), longMail)
                        .answer("the sender is in the header", "Phillip Allen"),
                TraceBuilder.rollout("r2", QUERY).answer("guess", "Jeff Skilling"),
                TraceBuilder.rollout("r3", QUERY)
                        .failedCall("look it up", "read_email", Map.of("id", 42), "no such message")
                        .stopped(Termination.MAX_TURNS));
    }

    @Test
    void oneRankingPromptShowsEverythingAndYieldsRewardsAndPairs() {
        judgeModel.reply("{\"ranking\": [1, 3, 2]}");
        RankingJudge judge = judge(JudgeMode.RANKING);
        List<Trace> group = group();
        Judgement.Ranked verdict = assertInstanceOf(Judgement.Ranked.class, judge.judge(group, EXAMPLE));
        assertEquals(List.of(1.0, 0.0, 0.5), verdict.rewards());
        assertEquals(2, verdict.pairs().size());
        assertSame(group.get(0), verdict.pairs().get(0).chosen());
        assertSame(group.get(2), verdict.pairs().get(0).rejected());

        assertEquals(1, judgeModel.requests().size(), "one prompt per group");
        BackendRequest seen = judgeModel.requests().get(0);
        String prompt = seen.messages().get(0).content();
        assertTrue(seen.jsonReply(), "the judge asks for a JSON reply");
        assertEquals(0.0, seen.sampling().temperature());
        for (String expected : List.of("Task: " + QUERY, "Reference answer: Phillip Allen", "=== Attempt 3 ===",
                "Thought: search the mailbox",
                "Tool call: search_emails{", "\"keywords\":[\"budget\"]", "\"date\":\"2001-05-14\"",
                "Tool output: From: phillip.allen@enron.com", "more characters]",
                "Tool output (ERROR): Error: no such message", "Final answer: Jeff Skilling",
                "Final answer: none (the run ended with MAX_TURNS)", "\"ranking\"")) {
            assertTrue(prompt.contains(expected), "prompt lacks <" + expected + ">:\n" + prompt);
        }
        assertTrue(prompt.length() < 3000, "long tool output must be shortened, prompt is " + prompt.length());
        assertEquals(new JudgeStats.Snapshot(1, 0, 0, 0), judge.stats().snapshot());
    }

    @Test
    void shuffledPresentationIsMappedBackToTheGroup() {
        // a judge double that reads the prompt: the attempt answering "Phillip Allen" first, the one
        // without an answer last
        judgeModel.replyWith(request -> {
            String prompt = request.messages().get(0).content();
            int right = attemptWith(prompt, "Final answer: Phillip Allen");
            int none = attemptWith(prompt, "Final answer: none");
            int wrong = 6 - right - none;
            return "{\"ranking\": [" + right + ", " + wrong + ", " + none + "]}";
        });
        OpenAiClient client = new OpenAiClient(OpenAiConfig.of(server.baseUrl(), "judge-70b"));
        RankingJudge shuffling = new RankingJudge(client, JudgeSettings.defaults(JudgeMode.RANKING));
        List<Trace> group = group();
        Judgement.Ranked verdict = assertInstanceOf(Judgement.Ranked.class, shuffling.judge(group, EXAMPLE));
        assertEquals(List.of(1.0, 0.5, 0.0), verdict.rewards());
        assertEquals(List.of(List.of(0), List.of(1), List.of(2)), verdict.ranking().tiers());
        assertSame(group.get(0), verdict.pairs().get(0).chosen());
        String prompt = judgeModel.requests().get(0).messages().get(0).content();
        assertTrue(attemptWith(prompt, "Final answer: Phillip Allen") != 1 || attemptWith(prompt, "Final answer: none") != 3,
                "this group's seeded shuffle should move at least one rollout:\n" + prompt);
    }

    /** The number of the attempt whose section of the prompt contains {@code marker}. */
    private static int attemptWith(String prompt, String marker) {
        int at = prompt.indexOf(marker);
        int header = prompt.lastIndexOf("=== Attempt ", at);
        return Integer.parseInt(prompt.substring(header + 12, prompt.indexOf(' ', header + 12)));
    }

    @Test
    void malformedReplyIsSentBackAndRetried() {
        judgeModel.reply("I think attempt 1 is clearly the best.").reply("{\"ranking\": [1, [2, 3]]}");
        RankingJudge judge = judge(JudgeMode.RANKING);
        Judgement.Ranked verdict = assertInstanceOf(Judgement.Ranked.class, judge.judge(group(), EXAMPLE));
        assertEquals(List.of(1.0, 0.25, 0.25), verdict.rewards());
        assertEquals(2, verdict.attempts());
        String correction = judgeModel.requests().get(1).messages().get(2).content();
        assertTrue(correction.startsWith("That reply cannot be used: the reply is not JSON"), correction);
        assertEquals(new JudgeStats.Snapshot(1, 0, 1, 0), judge.stats().snapshot());
    }

    @Test
    void judgeThatKeepsRankingATraceTwiceGetsTheGroupDroppedNotScored() {
        judgeModel.reply("{\"ranking\": [1, 1, 2]}").reply("{\"ranking\": [2, 2, 3]}").reply("{\"ranking\": [3, 1, 3]}");
        RankingJudge judge = judge(JudgeMode.RANKING);
        GroupOutcome outcome = judge.asReward().scoreGroup(group(), EXAMPLE);
        GroupOutcome.Dropped dropped = assertInstanceOf(GroupOutcome.Dropped.class, outcome);
        assertEquals("judge gave no valid verdict for group of enron-17 after 3 attempts: attempt 3 is ranked twice",
                dropped.reason());
        assertEquals(new JudgeStats.Snapshot(0, 1, 3, 0), judge.stats().snapshot());
    }

    @Test
    void outOfRangeAndMissingAttemptsAreRetriedToo() {
        judgeModel.reply("{\"ranking\": [4, 1, 2]}").reply("{\"ranking\": [2, 1]}").reply("{\"ranking\": [2, 1, 3]}");
        RankingJudge judge = judge(JudgeMode.RANKING);
        Judgement.Ranked verdict = assertInstanceOf(Judgement.Ranked.class, judge.judge(group(), EXAMPLE));
        assertEquals(List.of(0.5, 1.0, 0.0), verdict.rewards());
        assertEquals(3, verdict.attempts());
        String second = judgeModel.requests().get(2).messages().get(4).content();
        assertTrue(second.contains("attempts [3] are not ranked"), second);
    }

    @Test
    void relativeScoresAreTheRewards() {
        judgeModel.reply("{\"scores\": [{\"attempt\": 1, \"explanation\": \"right sender\", \"score\": 0.95},"
                + "{\"attempt\": 2, \"explanation\": \"guessed\", \"score\": 0.1},"
                + "{\"attempt\": 3, \"explanation\": \"no answer\", \"score\": 0.0}]}");
        RankingJudge judge = judge(JudgeMode.RELATIVE_SCORES);
        List<Trace> group = group();
        GroupOutcome.Scored scored = assertInstanceOf(GroupOutcome.Scored.class, judge.asReward().scoreGroup(group, EXAMPLE));
        assertEquals(List.of(0.95, 0.1, 0.0), scored.rewards());
        assertTrue(judgeModel.requests().get(0).messages().get(0).content().contains("\"scores\""));
    }

    @Test
    void judgeServerErrorsAreCountedThenTheGroupIsDropped() {
        judgeModel.fail("CUDA out of memory").fail("CUDA out of memory").fail("CUDA out of memory");
        RankingJudge judge = judge(JudgeMode.RANKING);
        Judgement.Dropped dropped = assertInstanceOf(Judgement.Dropped.class, judge.judge(group(), EXAMPLE));
        // the judge's server says only that it failed (serve never passes a backend's message on)
        assertTrue(dropped.reason().startsWith("judge call failed:") && dropped.reason().contains("failed with 500"),
                dropped.reason());
        assertEquals(new JudgeStats.Snapshot(0, 1, 0, 3), judge.stats().snapshot());
    }

    @Test
    void unreachableOrUnauthorisedJudgeStopsTheRun() throws IOException {
        int closedPort = FreePorts.pick();
        RankingJudge nowhere = new RankingJudge(new OpenAiClient(OpenAiConfig.of("http://127.0.0.1:" + closedPort + "/v1", "j")),
                JudgeSettings.defaults(JudgeMode.RANKING));
        RewardUnavailableException e = assertThrows(RewardUnavailableException.class,
                () -> nowhere.asReward().scoreGroup(group(), EXAMPLE));
        assertTrue(e.getMessage().contains("cannot reach http://127.0.0.1:" + closedPort), e.getMessage());

        try (OpenAiServer guarded = OpenAiServer.start(judgeModel, ServerSettings.loopback(0).withApiKey("sk-judge"))) {
            RankingJudge noKey = new RankingJudge(new OpenAiClient(OpenAiConfig.of(guarded.baseUrl(), "judge-70b")),
                    JudgeSettings.defaults(JudgeMode.RANKING));
            RewardUnavailableException denied = assertThrows(RewardUnavailableException.class,
                    () -> noKey.judge(group(), EXAMPLE));
            assertTrue(denied.getMessage().contains("rejected the API key (401)"), denied.getMessage());
        }
        assertEquals(0, judgeModel.requests().size());
    }
}
