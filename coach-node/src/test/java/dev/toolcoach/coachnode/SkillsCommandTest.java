package dev.toolcoach.coachnode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.tasks.OracleRollout;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.synthetic.FinanceTask;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.finance.FinanceTools;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code skills mine | list | approve} on a traces file made by the finance task's oracle through the real tools. */
class SkillsCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static Path tracesFile(Path dir) throws Exception {
        Task finance = FinanceTask.create(60, 7);
        List<Trace> traces = new ArrayList<>();
        // the oracle replays bytes, several per model token: its token limits are lifted, as the task jobs' replays do
        AgentConfig agent = ScratchRecipe.defaults().greedyAgent().withLimits(8, Integer.MAX_VALUE)
                .withSampling(SamplingParams.greedy(Integer.MAX_VALUE));
        try (ToolExecutor tools = new ToolExecutor(FinanceTools.suite(), ExecutorSettings.defaults())) {
            for (TaskExample e : finance.examples()) {
                Trace t = OracleRollout.run(e, tools, agent).toCompletableFuture().join();
                Map<String, Object> metadata = new LinkedHashMap<>(t.metadata());
                metadata.put("reward", finance.reward().score(e, t));
                traces.add(new Trace(t.rolloutId(), t.groupId(), t.queryId(), t.query(), t.turns(), t.tokens(), t.finalAnswer(),
                        t.termination(), t.error(), t.startedAtMillis(), t.durationMillis(), metadata));
            }
        }
        Path file = dir.resolve("traces.jsonl");
        TraceJson.append(file, traces);
        Files.writeString(file, "not a trace\n", java.nio.file.StandardOpenOption.APPEND);
        return file;
    }

    @Test
    void minesListsAndApprovesSkillsWithTheirProvenance(@TempDir Path dir) throws Exception {
        Path traces = tracesFile(dir);
        Path skills = dir.resolve("skills");
        CliRun mine = new CliRun();
        assertEquals(0, mine.execute("skills", "mine", "--traces", traces.toString(), "--suite", "finance", "--dir", skills.toString(),
                "--min-length", "2"), mine.err.toString());
        JsonNode report = JSON.readTree(mine.out.toString());
        assertEquals(60, report.get("traces").asInt());
        assertEquals(List.of("line 61: not valid JSON at column 4"), List.of(report.get("skipped_lines").get(0).asText()));
        JsonNode skill = report.get("accepted").get(0);
        org.junit.jupiter.api.Assertions.assertNotNull(skill, report.toString());
        assertEquals("compound_interest_then_cagr", skill.get("name").asText());
        assertEquals("pending", skill.get("status").asText());
        assertEquals(skill.get("support").asInt(), skill.get("validated").asInt());
        assertTrue(Files.readString(skills.resolve("compound_interest_then_cagr/SKILL.md")).contains("end_value = step 1 result /future_value"));

        CliRun approve = new CliRun();
        assertEquals(0, approve.execute("skills", "approve", "--dir", skills.toString(), "compound_interest_then_cagr"), approve.err.toString());
        CliRun list = new CliRun();
        assertEquals(0, list.execute("skills", "list", "--dir", skills.toString()));
        JsonNode rows = JSON.readTree(list.out.toString());
        assertEquals("approved", rows.get(0).get("status").asText());
        assertEquals(traces.toString(), rows.get(0).get("source").asText());

        // mined again with TILE's default of three calls: the two-call sequence is not long enough, nothing is found
        CliRun three = new CliRun();
        assertEquals(0, three.execute("skills", "mine", "--traces", traces.toString(), "--suite", "finance", "--dir",
                dir.resolve("three").toString()));
        assertEquals(0, JSON.readTree(three.out.toString()).get("patterns").asInt());
    }

    @Test
    void aMalformedSkillFileOrAnUnknownSkillIsOneLineAndExitTwo(@TempDir Path dir) throws Exception {
        Path file = Files.createDirectories(dir.resolve("s")).resolve("skill.json");
        Files.writeString(file, "{\"name\": \"s\", \"description\": \"d\", \"suite\": \"finance\", \"status\": \"pending\"}");
        CliRun list = new CliRun();
        assertEquals(2, list.execute("skills", "list", "--dir", dir.toString()));
        assertEquals("list: " + file + ": field parameters: must be a JSON schema object\n", list.err.toString());
        CliRun approve = new CliRun();
        Files.delete(file);
        assertEquals(2, approve.execute("skills", "approve", "--dir", dir.toString(), "nothing"));
        assertEquals("approve: no skill named 'nothing' in " + dir + "\n", approve.err.toString());
    }
}
