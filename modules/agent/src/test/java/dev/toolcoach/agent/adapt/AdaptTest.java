package dev.toolcoach.agent.adapt;

import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdaptTest {

    /** Tools "flaky" (fails with probability 0.6, seeded), "steady" (always works) and "other". */
    static final class Tools implements ToolEnvironment {
        private final Random random = new Random(3);

        @Override
        public List<ToolSpec> specs() {
            return List.of(ToolSpec.of("flaky", "price", "{\"type\":\"object\"}"), ToolSpec.of("steady", "price", "{\"type\":\"object\"}"),
                    ToolSpec.of("other", "other", "{\"type\":\"object\"}"));
        }

        @Override
        public synchronized List<CompletionStage<ToolResult>> execute(String trajectoryId, List<ToolCall> calls) {
            return calls.stream().map(c -> (CompletionStage<ToolResult>) CompletableFuture.completedFuture(
                    c.name().equals("flaky") && random.nextDouble() < 0.6
                            ? ToolResult.failed(c, ToolResult.Status.UNAVAILABLE, "down", 1)
                            : ToolResult.ok(c, "1", 1, 1, false))).toList();
        }
    }

    @Test
    void betaCountsCompetenceAndExactMergeOfReplicatedAndLocalExperience() {
        ToolPreferences p = new ToolPreferences(new ToolPreferences.Prior(2, 3), 1);
        assertEquals(0.4, p.competence("c", "t"), 1e-12);
        p.observe("c", "t", true);
        p.observe("c", "t", true);
        p.observe("c", "t", false);
        assertEquals(4, p.alpha("c", "t"));
        assertEquals(4, p.beta("c", "t"));
        Map<ToolPreferences.Key, Experience> drained = p.drain();
        assertEquals(Map.of(new ToolPreferences.Key("c", "t"), new Experience(2, 1)), drained);
        assertEquals(2, p.alpha("c", "t"), "drained outcomes count again only once the replica reports them");
        // the replica reports this node's 2/1 plus another node's 5/0; one more local success arrives meanwhile
        p.replicated(Map.of(new ToolPreferences.Key("c", "t"), new Experience(7, 1)));
        p.observe("c", "t", true);
        assertEquals(2 + 8, p.alpha("c", "t"));
        assertEquals(3 + 1, p.beta("c", "t"));
    }

    @Test
    void thompsonSamplingLearnsToServeTheReliableToolAndIsSeeded() throws Exception {
        ToolPreferences p = new ToolPreferences(ToolPreferences.Prior.UNIFORM, 7);
        AdaptiveToolEnvironment env = new AdaptiveToolEnvironment(new Tools(), p,
                new EquivalentTools(List.of(List.of("flaky", "steady"))), "task:finance");
        assertEquals(List.of("flaky", "other"), env.specs().stream().map(ToolSpec::name).toList());
        int steadyLate = 0;
        for (int episode = 0; episode < 300; episode++) {
            ToolResult r = env.execute("t" + episode, List.of(new ToolCall("flaky", Map.of("x", 1)))).get(0).toCompletableFuture().get();
            env.release("t" + episode).toCompletableFuture().get();
            if (episode >= 200 && r.call().name().equals("steady")) steadyLate++;
            assertEquals(Map.of("x", 1), r.call().arguments());
        }
        assertTrue(steadyLate >= 95, "steady served " + steadyLate + " of the last 100 calls");
        assertTrue(p.competence("task:finance", "steady") > 0.95);
        assertTrue(p.competence("task:finance", "flaky") < 0.6);
        assertEquals(300, p.experience("task:finance", "flaky").calls() + p.experience("task:finance", "steady").calls());

        // the same seed draws the same choices
        ToolPreferences a = new ToolPreferences(ToolPreferences.Prior.UNIFORM, 11);
        ToolPreferences b = new ToolPreferences(ToolPreferences.Prior.UNIFORM, 11);
        for (int i = 0; i < 50; i++) assertEquals(a.sample("c", List.of("x", "y", "z")), b.sample("c", List.of("x", "y", "z")));
    }

    @Test
    void competenceThresholdsExploreAndRetirementAreReportedFromExperience() {
        ToolPreferences p = new ToolPreferences(ToolPreferences.Prior.UNIFORM, 1);
        for (int i = 0; i < 9; i++) p.observe("c", "good", true);          // C = 10/11
        for (int i = 0; i < 5; i++) p.observe("c", "bad", false);          // C = 1/7
        p.observe("c", "mid", true);                                        // C = 2/3
        p.observe("d", "fine", true);
        p.observe("d", "fine", true);
        p.observe("d", "fine", true);                                       // C = 0.8: not above 0.8
        p.episode("c", Set.of("good", "bad", "mid"));
        for (int i = 0; i < 3; i++) p.episode("c", Set.of("good", "mid"));
        List<Competence.ContextCompetence> report = Competence.report(p, Map.of("d", List.of("fine", "unused")), 3);
        Competence.ContextCompetence c = report.get(0);
        assertEquals("c", c.context());
        assertEquals(List.of("bad", "good", "mid"), c.tools().stream().map(Competence.ToolCompetence::tool).toList());
        Competence.ToolCompetence bad = c.tools().get(0);
        assertEquals(Competence.Level.NEEDS_PRACTICE, bad.level());
        assertEquals(3, bad.episodesUnused());
        assertTrue(bad.retire());
        assertEquals(Competence.Level.MASTERED, c.tools().get(1).level());
        assertEquals(Competence.Level.LEARNING, c.tools().get(2).level());
        assertFalse(c.tools().get(1).retire());
        assertFalse(c.exploreNewTools());
        Competence.ContextCompetence d = report.get(1);
        assertEquals(Competence.Level.LEARNING, d.tools().get(0).level());
        assertEquals(0.5, d.tools().get(1).competence());
        assertFalse(d.exploreNewTools(), "an offered tool at the prior (0.5) is not above 0.7");
        ToolPreferences all = new ToolPreferences(ToolPreferences.Prior.UNIFORM, 1);
        for (int i = 0; i < 4; i++) {
            all.observe("e", "x", true);
            all.observe("e", "y", true);
        }
        assertTrue(Competence.report(all, Map.of(), 5).get(0).exploreNewTools());
        assertThrows(IllegalArgumentException.class, () -> Competence.report(all, Map.of(), 0));
    }

    @Test
    void preferenceFilesRoundTripAndRefuseUnknownToolsAndBadCounts(@TempDir Path dir) throws Exception {
        ToolPreferences p = new ToolPreferences(ToolPreferences.Prior.UNIFORM, 1);
        p.observe("task:finance", "steady", true);
        p.observe("task:finance", "flaky", false);
        Path file = dir.resolve("prefs.json");
        PreferenceFile.write(file, p);
        Map<ToolPreferences.Key, Experience> read = PreferenceFile.read(file, Set.of("steady", "flaky"));
        ToolPreferences restored = new ToolPreferences(ToolPreferences.Prior.UNIFORM, 1);
        restored.restore(read);
        assertEquals(p.all(), restored.all());

        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> PreferenceFile.read(file, Set.of("steady")));
        assertEquals(file + ": field contexts.task:finance.flaky: unknown tool 'flaky'", unknown.getMessage());
        Files.writeString(file, Files.readString(file).replace("\"failures\" : 1", "\"failures\" : -1"));
        assertEquals(file + ": field contexts.task:finance.flaky.failures must be an integer >= 0",
                assertThrows(IllegalArgumentException.class, () -> PreferenceFile.read(file, Set.of("steady", "flaky"))).getMessage());
        Files.writeString(file, "{\"contexts\": {\"c\": ");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PreferenceFile.read(file, Set.of())).getMessage()
                .startsWith(file + ": not valid JSON"));
    }

    /** Preferences in which "steady" has 6 successes and 2 failures, "flaky" 2 and 5 (Beta(1, 1) prior). */
    private static ToolPreferences learned(long seed) {
        ToolPreferences p = new ToolPreferences(ToolPreferences.Prior.UNIFORM, seed);
        for (int i = 0; i < 8; i++) p.observe("task:finance", "steady", i < 6);
        for (int i = 0; i < 7; i++) p.observe("task:finance", "flaky", i < 2);
        return p;
    }

    @Test
    void hintNamesTheSampledToolWithItsCompetenceAmongOfferedToolsOnlyAndIsSeeded() throws Exception {
        EquivalentTools group = new EquivalentTools(List.of(List.of("flaky", "steady")));
        AdaptiveToolEnvironment env = AdaptiveToolEnvironment.hinting(new Tools(), learned(1), group, "task:finance", 5);
        assertEquals(List.of("flaky", "steady", "other"), env.specs().stream().map(ToolSpec::name).toList(),
                "hinting offers every tool: the model chooses");
        Map<String, Integer> named = new java.util.HashMap<>();
        for (int rollout = 0; rollout < 200; rollout++) {
            String hint = env.promptHint("r" + rollout, env.specs()).orElseThrow();
            assertEquals(hint, AdaptiveToolEnvironment.hinting(new Tools(), learned(99), group, "task:finance", 5)
                    .promptHint("r" + rollout, env.specs()).orElseThrow(), "same seed, rollout and counts: same hint");
            assertTrue(hint.equals("Tool preference from experience: steady (C 0.70) rather than flaky (C 0.33).")
                    || hint.equals("Tool preference from experience: flaky (C 0.33) rather than steady (C 0.70)."), hint);
            named.merge(hint.substring(AdaptiveToolEnvironment.HINT_PREFIX.length()).split(" ")[0], 1, Integer::sum);
        }
        assertTrue(named.getOrDefault("steady", 0) >= 170 && named.getOrDefault("flaky", 0) >= 1,
                "Thompson sampling mostly names the reliable tool and still explores: " + named);

        // only tools the rollout is offered are named; no choice, no hint
        List<ToolSpec> withoutSteady = env.specs().stream().filter(s -> !s.name().equals("steady")).toList();
        assertEquals(java.util.Optional.empty(), env.promptHint("r1", withoutSteady));
        AdaptiveToolEnvironment three = AdaptiveToolEnvironment.hinting(new Tools(), learned(1),
                new EquivalentTools(List.of(List.of("flaky", "steady", "other"))), "task:finance", 5);
        List<ToolSpec> twoOfThree = three.specs().stream().filter(s -> !s.name().equals("flaky")).toList();
        for (int rollout = 0; rollout < 20; rollout++) {
            String hint = three.promptHint("r" + rollout, twoOfThree).orElseThrow();
            assertFalse(hint.contains("flaky"), hint);
        }

        // calls run as the model wrote them, and still teach the preferences
        ToolPreferences p = new ToolPreferences(ToolPreferences.Prior.UNIFORM, 1);
        AdaptiveToolEnvironment fresh = AdaptiveToolEnvironment.hinting(new Tools(), p, group, "task:finance", 5);
        for (int i = 0; i < 10; i++) {
            assertEquals("flaky", fresh.execute("t", List.of(new ToolCall("flaky", Map.of()))).get(0).toCompletableFuture().get().call().name());
        }
        assertEquals(10, p.experience("task:finance", "flaky").calls());
        assertEquals(java.util.Optional.empty(), new AdaptiveToolEnvironment(new Tools(), p, group, "task:finance")
                .promptHint("r1", new Tools().specs()), "routing gives no hint");
    }

    @Test
    void theHintEndsTheSystemPromptTheModelSees() {
        dev.toolcoach.agent.replay.ByteTokenizer tokenizer = dev.toolcoach.agent.replay.ByteTokenizer.chatMl();
        dev.toolcoach.agent.replay.ReplayGenerator model = dev.toolcoach.agent.replay.ReplayGenerator.chatMl(tokenizer,
                List.of("<answer>1</answer>"));
        AdaptiveToolEnvironment env = AdaptiveToolEnvironment.of(new Tools(), learned(1),
                AdaptSettings.of(List.of(List.of("flaky", "steady"))).withHint(true), "task:finance", 5);
        dev.toolcoach.agent.AgentLoop loop = new dev.toolcoach.agent.AgentLoop(tokenizer, new dev.toolcoach.agent.replay.ChatMlFormat(),
                model, env, dev.toolcoach.agent.AgentConfig.defaults());
        loop.run(new dev.toolcoach.agent.RolloutRequest("r7", "g", "q", "price?", Map.of())).toCompletableFuture().join();
        String prompt = tokenizer.decode(model.requests().get(0).context());
        String hint = env.promptHint("r7", env.specs()).orElseThrow();
        assertTrue(prompt.contains(loop.systemPrompt() + "\n\n" + hint + "<|im_end|>"), prompt);
        assertTrue(prompt.contains("steady") && prompt.contains("flaky"), "both tools are listed for the model to choose");
    }

    @Test
    void settingsFilesAreCheckedByField(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("tile.json");
        Files.writeString(file, "{\"prior\": {\"alpha\": 2, \"beta\": 1}, \"equivalent\": [[\"flaky\", \"steady\"]], \"retire_after\": 5}");
        AdaptSettings s = AdaptSettings.read(file);
        assertEquals(new ToolPreferences.Prior(2, 1), s.prior());
        assertEquals(List.of(List.of("flaky", "steady")), s.equivalent().groups());
        assertEquals(5, s.retireAfter());
        assertFalse(s.hint(), "routing unless the hint is asked for");
        Files.writeString(file, "{\"equivalent\": [[\"flaky\", \"steady\"]], \"hint\": true}");
        assertTrue(AdaptSettings.read(file).hint());
        Files.writeString(file, "{\"equivalent\": [[\"flaky\", \"nope\"]]}");
        AdaptSettings unknownTool = AdaptSettings.read(file);
        assertEquals(file + ": equivalent[0][1]: unknown tool 'nope' (known: [flaky, steady])", assertThrows(IllegalArgumentException.class,
                () -> unknownTool.checkKnown(List.of("steady", "flaky"))).getMessage());
        assertEquals("equivalent[0][1]: unknown tool 'nope' (known: [flaky, other, steady])", assertThrows(IllegalArgumentException.class,
                () -> new AdaptiveToolEnvironment(new Tools(), new ToolPreferences(s.prior(), 1), unknownTool.equivalent(), "c")).getMessage());
        for (String[] bad : new String[][]{
                {"{\"equivalent\": [[\"a\"]]}", "equivalent[0] needs at least two tools, has 1"},
                {"{\"equivalent\": [[\"a\", \"b\"], [\"b\", \"c\"]]}", "equivalent[1][0]: tool 'b' is in two groups"},
                {"{\"equivalent\": [], \"prior\": {\"alpha\": 0, \"beta\": 1}}", "prior alpha and beta must be finite and > 0, were 0.0, 1.0"},
                {"{\"equivalent\": [], \"prior\": {\"alpha\": \"x\"}}", "field prior.alpha must be a number"},
                {"{\"equivalent\": [], \"retire_after\": 0}", "retire_after must be at least 1 episode, was 0"},
                {"{\"equivalent\": [], \"typo\": 1}", "unknown field 'typo' (known: "},
                {"{\"equivalent\": [], \"hint\": \"yes\"}", "field hint must be true or false"},
                {"{}", "field equivalent must be a list of tool-name lists"}}) {
            Files.writeString(file, bad[0]);
            String message = assertThrows(IllegalArgumentException.class, () -> AdaptSettings.read(file)).getMessage();
            assertTrue(message.startsWith(file + ": " + bad[1]), message);
        }
    }
}
