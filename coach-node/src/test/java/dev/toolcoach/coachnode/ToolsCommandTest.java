package dev.toolcoach.coachnode;

import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceJson;
import dev.toolcoach.trace.Turn;
import dev.toolcoach.trace.tooluse.ToolUse;
import dev.toolcoach.trace.tooluse.ToolUseRecord;
import dev.toolcoach.agent.adapt.PreferenceFile;
import dev.toolcoach.agent.adapt.ToolPreferences;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ToolsCommandTest {

    private static Trace trace(String id, boolean priceFails) {
        ToolCall price = new ToolCall("get_price", Map.of("ticker", "MSFT"));
        ToolCall price2 = new ToolCall("get_price", Map.of("ticker", "msft"));
        ToolResult first = priceFails ? ToolResult.failed(price, ToolResult.Status.ERROR, "down", 3)
                : ToolResult.ok(price, "42", 42, 3, false);
        Turn t0 = new Turn("p", "c", new ParsedCompletion(null, List.of(price), null, null, null), "o", List.of(first), List.of(), 0, 0);
        Turn t1 = new Turn("p", "c", new ParsedCompletion(null, List.of(price2), null, null, null), "o",
                List.of(ToolResult.ok(price2, "42", 42, 1, false)), List.of(), 0, 0);
        return new Trace(id, "g", "q", "price of MSFT?", List.of(t0, t1), null, "42", Termination.ANSWER, null, 0, 1,
                Map.of());
    }

    @Test
    void extractsRecordsFromTracesAndReportsThemAsATableAndAChart(@TempDir Path dir) throws Exception {
        Path run = dir.resolve("run-1");
        TraceJson.append(run.resolve("traces.jsonl"), List.of(trace("a", true), trace("b", false)));
        Files.writeString(run.resolve("traces.jsonl"), "{broken\n", StandardOpenOption.APPEND);

        CliRun extract = new CliRun();
        assertEquals(0, extract.execute("tools", "extract", run.toString(), "--task", "finance"), extract.err.toString());
        assertTrue(extract.err.toString().contains("line 3 skipped"), extract.err.toString());
        List<ToolUseRecord> records = ToolUse.read(run.resolve(ToolUse.FILE)).items();
        assertEquals(4, records.size());
        assertEquals("run-1", records.get(0).run());
        assertEquals("task:finance", records.get(0).context());
        assertTrue(records.get(1).retry());

        CliRun report = new CliRun();
        assertEquals(0, report.execute("tools", "report", run.toString()), report.err.toString());
        String[] lines = report.out.toString().split("\n");
        assertEquals(2, lines.length, report.out.toString());
        assertTrue(lines[0].startsWith("context"));
        assertTrue(lines[1].matches("task:finance\\s+get_price\\s+4\\s+75\\.0%\\s+1\\s+2\\s+0\\s+2\\.00\\s+2\\.0\\s+error=1"), lines[1]);
        assertTrue(Files.size(run.resolve("tool_use.png")) > 1000);

        // straight from the traces file, the table of the records extracted without a task (contexts by query)
        CliRun byQuery = new CliRun();
        assertEquals(0, byQuery.execute("tools", "extract", run.toString(), "-o", dir.resolve("by-query.jsonl").toString()));
        CliRun fromRecords = new CliRun();
        assertEquals(0, fromRecords.execute("tools", "report", "--no-chart", dir.resolve("by-query.jsonl").toString()));
        CliRun fromTraces = new CliRun();
        assertEquals(0, fromTraces.execute("tools", "report", "--no-chart", run.resolve("traces.jsonl").toString()));
        assertTrue(fromTraces.out.toString().contains("query:"), fromTraces.out.toString());
        assertEquals(fromRecords.out.toString(), fromTraces.out.toString());
    }

    @Test
    void byRunGivesCallsPerSolvedTaskForEachRunAndEvaluation(@TempDir Path dir) {
        Path run = dir.resolve("run-1");
        List<ToolUseRecord> records = new java.util.ArrayList<>();
        records.addAll(ToolUse.records(trace("a", true), "run-1", null, 1.0));
        records.addAll(ToolUse.records(trace("b", false), "run-1/eval/after_grpo", null, 1.0));
        records.addAll(ToolUse.records(trace("c", false), "run-1/eval/after_grpo", null, 0.0));
        ToolUse.write(run.resolve(ToolUse.FILE), records);

        CliRun report = new CliRun();
        assertEquals(0, report.execute("tools", "report", "--no-chart", "--by-run", run.toString()), report.err.toString());
        String[] lines = report.out.toString().split("\n");
        assertEquals(6, lines.length, report.out.toString()); // tool table (2), blank, run table (3)
        assertEquals("", lines[2]);
        assertTrue(lines[3].startsWith("run "), lines[3]);
        assertTrue(lines[4].matches("run-1\\s+1\\s+1\\s+2\\s+2\\.000\\s+2\\.000 \\(2\\.000-2\\.000\\)\\s+1\\s+1\\.000\\s+1\\s+0"), lines[4]);
        assertTrue(lines[5].matches("run-1/eval/after_grpo\\s+2\\s+1\\s+4\\s+2\\.000\\s+2\\.000 \\(2\\.000-2\\.000\\)\\s+0\\s+0\\.000\\s+2\\s+0"),
                lines[5]);
    }

    @Test
    void preferencesShowCompetenceLevelsAndRetirementFlags(@TempDir Path dir) {
        ToolPreferences p = new ToolPreferences(ToolPreferences.Prior.UNIFORM, 1);
        for (int i = 0; i < 8; i++) p.observe("task:finance", "steady", true);
        for (int i = 0; i < 4; i++) p.observe("task:finance", "flaky", false);
        p.episode("task:finance", Set.of("flaky", "steady"));
        for (int i = 0; i < 3; i++) p.episode("task:finance", Set.of("steady"));
        PreferenceFile.write(dir.resolve("tile_preferences.json"), p);

        CliRun r = new CliRun();
        assertEquals(0, r.execute("tools", "preferences", "--retire-after", "3", dir.toString()), r.err.toString());
        String[] lines = r.out.toString().split("\n");
        assertEquals(3, lines.length, r.out.toString());
        assertTrue(lines[1].matches("task:finance\\s+flaky\\s+0\\s+4\\s+1\\.0\\s+5\\.0\\s+0\\.167\\s+needs_practice\\s+3\\s+RETIRE\\?"), lines[1]);
        assertTrue(lines[2].matches("task:finance\\s+steady\\s+8\\s+0\\s+9\\.0\\s+1\\.0\\s+0\\.900\\s+mastered\\s+0\\s*"), lines[2]);

        CliRun bad = new CliRun();
        assertEquals(2, bad.execute("tools", "preferences", dir.resolve("missing.json").toString()));
        assertTrue(bad.err.toString().startsWith("preferences: cannot read tool preferences"), bad.err.toString());
    }

    @Test
    void aFileWithoutCallsIsOneLine(@TempDir Path dir) throws Exception {
        Path empty = Files.writeString(dir.resolve("tool_use.jsonl"), "");
        CliRun r = new CliRun();
        assertEquals(2, r.execute("tools", "report", empty.toString()));
        assertEquals("report: " + empty + " holds no tool calls\n", r.err.toString());
        CliRun missing = new CliRun();
        assertEquals(2, missing.execute("tools", "extract", dir.resolve("nope.jsonl").toString()));
    }
}
