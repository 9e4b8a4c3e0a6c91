package dev.toolcoach.tools.skills;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.spi.ToolSuite;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Mining, abstraction with data flow, validation by replay, the library and the composite as an ordinary tool. */
class CrystallizeTest {

    private final ToolSuite suite = Catalog.suite();
    private final ToolExecutor tools = Catalog.executor(suite);

    @TempDir
    Path dir;

    @AfterEach
    void close() {
        tools.close();
    }

    private List<Trace> buyingTraces() {
        return List.of(Catalog.buyFirst(tools, "t1", "kettle"), Catalog.buyFirst(tools, "t2", "lamp"),
                Catalog.buyFirst(tools, "t3", "red"), Catalog.buyFirst(tools, "t4", "teapot"));
    }

    private static CallPattern only(List<Trace> traces, int minLength) {
        List<CallPattern> patterns = new SequenceMiner(minLength, minLength, 3).mine(traces.stream().map(SkillTrajectory::of).toList());
        assertEquals(1, patterns.size(), patterns.toString());
        return patterns.get(0);
    }

    @Test
    void dataFlowFromEarlierResultsBecomesPartOfTheCompositeAndTheRestParameters() {
        CallPattern pattern = only(buyingTraces(), 3);
        SkillDefinition skill = SkillAbstraction.abstractPattern(pattern, suite, Set.copyOf(suite.toolNames()), "test", 1.0, 3, 3);
        assertEquals("find_items_then_get_item_then_with_tax", skill.name());
        assertEquals("[\"word\"]", skill.parameters().path("required").toString());
        assertEquals(List.of("word"), names(skill.parameters().path("properties")));
        assertEquals(new ArgumentSource.Parameter("word", 0), skill.steps().get(0).arguments().get("word"));
        assertEquals(new ArgumentSource.FromStep(1, "/0/id"), skill.steps().get(1).arguments().get("id"));
        assertEquals(new ArgumentSource.FromStep(2, "/price"), skill.steps().get(2).arguments().get("amount"));
        assertTrue(skill.description().contains("get_item's id is find_items's result at /0/id"), skill.description());
        assertEquals(4, skill.provenance().support());
    }

    @Test
    void anArgumentNotAlwaysAtOnePlaceStaysAParameterAndTheCardSaysWhereItWasSeen() {
        // the agent read the second hit in one trajectory: no one pointer holds the id everywhere
        List<Trace> traces = new ArrayList<>(buyingTraces().subList(0, 2));
        traces.add(Catalog.run(tools, "t9", 1.0, List.of(
                r -> new ToolCall("find_items", Map.of("word", "red")),
                r -> new ToolCall("get_item", Map.of("id", "sku-a2")),
                r -> new ToolCall("with_tax", Map.of("amount", 24.5)))));
        SkillDefinition skill = SkillAbstraction.abstractPattern(only(traces, 3), suite, Set.of(), "test", 1.0, 3, 3);
        assertEquals(new ArgumentSource.Parameter("id", 1), skill.steps().get(1).arguments().get("id"));
        assertEquals(new ArgumentSource.FromStep(2, "/price"), skill.steps().get(2).arguments().get("amount"));
        assertTrue(SkillCard.markdown(skill).contains("id = id [seen in step 1's result text]"));
    }

    @Test
    void theCompositeIsAnOrdinaryToolOfItsSuiteRunThroughTheExecutor() throws Exception {
        SkillDefinition skill = SkillAbstraction.abstractPattern(only(buyingTraces(), 3), suite, Set.of(), "test", 1.0, 3, 3);
        try (ToolExecutor extended = Catalog.executor(SkillSuites.extend(suite, List.of(skill)))) {
            assertTrue(extended.suite().toolNames().containsAll(List.of("find_items", "get_item", "with_tax", skill.name())));
            ToolResult composite = extended.call("r1", new ToolCall(skill.name(), Map.of("word", "desk"))).join();
            ToolResult direct = extended.call("r1", new ToolCall("with_tax", Map.of("amount", 40.0))).join();
            assertTrue(composite.ok(), composite.text());
            assertEquals(direct.text(), composite.text());
            // a step that cannot get its input fails the composite, naming the step, as an error result the model reads
            ToolResult nothing = extended.call("r1", new ToolCall(skill.name(), Map.of("word", "sofa"))).join();
            assertEquals(ToolResult.Status.ERROR, nothing.status());
            assertTrue(nothing.text().contains("step 2 (get_item) needs 'id' from step 1's result at /0/id"), nothing.text());
            ToolResult invalid = extended.call("r1", new ToolCall(skill.name(), Map.of("word", 3))).join();
            assertEquals(ToolResult.Status.INVALID_ARGUMENTS, invalid.status());
        }
    }

    @Test
    void validationReplaysEveryTrajectoryAndRejectsOneWhoseResultsItCannotReproduce() {
        List<Trace> traces = buyingTraces();
        CallPattern pattern = only(traces, 3);
        SkillDefinition skill = SkillAbstraction.abstractPattern(pattern, suite, Set.of(), "test", 1.0, 3, 3);
        SkillValidator validator = new SkillValidator(Duration.ofSeconds(5), List.of(new dev.toolcoach.agent.OutputCap(16_000)));
        SkillValidator.Verdict verdict = validator.validate(skill, pattern, suite);
        assertTrue(verdict.accepted(), verdict.reason());
        assertEquals(4, verdict.replayed());

        // the same calls, but one recorded result is not what the tool gives (a tool that changed since, or a stale log)
        List<CallPattern.Occurrence> tampered = new ArrayList<>(pattern.occurrences());
        CallPattern.Occurrence second = tampered.get(1);
        List<ToolResult> steps = new ArrayList<>(second.steps());
        ToolResult last = steps.get(2);
        steps.set(2, ToolResult.ok(last.call(), "99.99", new java.math.BigDecimal("99.99"), 0, false));
        tampered.set(1, new CallPattern.Occurrence(second.trajectoryId(), second.start(), steps));
        SkillValidator.Verdict rejected = validator.validate(skill, new CallPattern(pattern.tools(), tampered), suite);
        assertFalse(rejected.accepted());
        assertEquals("trajectory t2: step 3 (with_tax): result text differs from the recorded one", rejected.reason());
    }

    @Test
    void crystallizeSavesValidatedSkillsPendingApprovalAndCountsRejectionsWithReasons() throws IOException {
        List<Trace> traces = new ArrayList<>(buyingTraces());
        // a failed episode is not mined from
        traces.add(Catalog.run(tools, "f1", 0.0, List.of(r -> new ToolCall("find_items", Map.of("word", "x")),
                r -> new ToolCall("with_tax", Map.of("amount", 1.0)))));
        SkillLibrary library = new SkillLibrary(dir.resolve("skills"));
        Crystallizer.Settings settings = new Crystallizer.Settings(3, 4, 3, 1.0, false, Duration.ofSeconds(5), List.of(16_000));
        Crystallizer.Report report = new Crystallizer(settings).crystallize(traces, suite, library, "traces.jsonl");
        assertEquals(5, report.traces());
        assertEquals(4, report.successful());
        assertEquals(1, report.accepted().size());
        assertEquals(0, report.rejected().size());
        SkillDefinition saved = library.all().get(0);
        assertEquals(SkillDefinition.Status.PENDING, saved.status());
        assertEquals(4, saved.provenance().validated());
        assertTrue(library.approved("catalog").isEmpty());
        assertTrue(Files.readString(library.dir().resolve(saved.name()).resolve(SkillLibrary.CARD)).startsWith("---\nname: " + saved.name()));

        library.approve(saved.name());
        assertEquals(List.of(saved.name()), library.approved("catalog").stream().map(SkillDefinition::name).toList());

        // mined again: the known skill is not offered twice, and the two-call sub-patterns are counted as rejected
        Crystallizer.Report again = new Crystallizer(settings.withMinLength(2)).crystallize(traces, suite, library, "again");
        assertTrue(again.accepted().isEmpty(), again.accepted().toString());
        assertEquals("a known skill already makes these calls", again.rejected().get(0).reason());
    }

    @Test
    void dataFlowHiddenByTheAgentsOutputCapIsReadOffReplayedWholeResults() throws IOException {
        // the agent showed (and the trace kept) at most 60 characters of each result: find_items' list became text
        dev.toolcoach.agent.OutputCap agentCap = new dev.toolcoach.agent.OutputCap(60);
        List<Trace> traces = buyingTraces().stream().map(t -> capped(t, agentCap)).toList();
        assertTrue(traces.get(0).toolResults().get(0).truncated());
        CallPattern recorded = only(traces, 3);
        assertEquals(new ArgumentSource.Parameter("id", 1),
                SkillAbstraction.abstractPattern(recorded, suite, Set.of(), "t", 1, 3, 3).steps().get(1).arguments().get("id"));

        SkillLibrary library = new SkillLibrary(dir);
        Crystallizer.Report report = new Crystallizer(new Crystallizer.Settings(3, 3, 3, 1.0, true, Duration.ofSeconds(5),
                List.of(16_000, 60))).crystallize(traces, suite, library, "capped");
        assertEquals(1, report.accepted().size(), report.rejected().toString());
        assertEquals(new ArgumentSource.FromStep(1, "/0/id"), report.accepted().get(0).steps().get(1).arguments().get("id"));
        assertEquals(SkillDefinition.Status.APPROVED, library.all().get(0).status());

        // replayed without the agent's cap, the recorded results are not reproduced: rejected, with the reason
        Crystallizer.Report wrongCaps = new Crystallizer(new Crystallizer.Settings(3, 3, 3, 1.0, true, Duration.ofSeconds(5),
                List.of(16_000))).crystallize(traces, suite, new SkillLibrary(dir.resolve("other")), "capped");
        assertTrue(wrongCaps.accepted().isEmpty());
        assertEquals("replay failed: trajectory t1: step 1 (find_items): result text differs from the recorded one",
                wrongCaps.rejected().get(0).reason());
    }

    private static Trace capped(Trace t, dev.toolcoach.agent.OutputCap cap) {
        List<dev.toolcoach.trace.Turn> turns = t.turns().stream().map(u -> new dev.toolcoach.trace.Turn(u.promptForModel(),
                u.modelCompletion(), u.parsedCompletion(), u.toolOutput(), u.actionOutput().stream().map(cap::apply).toList(),
                u.formattedConversation(), u.tokenStart(), u.tokenEnd())).toList();
        return new Trace(t.rolloutId(), t.groupId(), t.queryId(), t.query(), turns, t.tokens(), t.finalAnswer(), t.termination(),
                t.error(), t.startedAtMillis(), t.durationMillis(), t.metadata());
    }

    @Test
    void approvedSkillsAreReadAgainAndAnExecutorServesThemFromThenOn() throws IOException {
        SkillLibrary library = new SkillLibrary(dir);
        SkillDefinition skill = SkillAbstraction.abstractPattern(only(buyingTraces(), 3), suite, Set.of(), "test", 1.0, 3, 3);
        library.save(skill);
        ApprovedSkills approved = new ApprovedSkills(suite, dir);
        assertEquals(List.of(), approved.names());
        assertTrue(approved.refresh().isEmpty());
        library.approve(skill.name());
        ToolSuite next = approved.refresh().orElseThrow();
        assertEquals(List.of(skill.name()), approved.names());
        assertTrue(approved.refresh().isEmpty(), "nothing changed since");

        ToolResult before = tools.call("r2", new ToolCall(skill.name(), Map.of("word", "desk"))).join();
        assertEquals(ToolResult.Status.UNKNOWN_TOOL, before.status());
        tools.replaceSuite(next);
        ToolResult after = tools.call("r2", new ToolCall(skill.name(), Map.of("word", "desk"))).join();
        assertEquals("48.00", after.text());
        assertTrue(tools.specs().stream().anyMatch(s -> s.name().equals(skill.name())));

        // a definition broken on disk: one line naming file and field; whoever serves keeps what it has
        java.nio.file.Path file = dir.resolve(skill.name()).resolve(SkillLibrary.DEFINITION);
        Files.writeString(file, Files.readString(file).replace("\"approved\"", "\"yes\""));
        IllegalArgumentException broken = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, approved::refresh);
        assertEquals(file + ": field status: must be \"pending\" or \"approved\", got \"yes\"", broken.getMessage());
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
