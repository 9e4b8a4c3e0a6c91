package dev.toolcoach.coachnode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.testkit.SharedData;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.TraceJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code train --tools-conf FILE --tool-suite NAME}: the embedded job hosts a suite the file defines as a tool node would
 * (here a LangChain4j tool class by name), and the job's calls (the oracle's texts, the warm-up, evaluations and the
 * athletes' rollouts) go to it; a file that does not define the suite is one line and exit 2 before anything runs.
 */
class EmbeddedHostedToolsTest {
    private static final Set<String> FINANCE_TOOLS = Set.of("cagr", "compound_interest", "loan_payment", "npv");

    @Test
    void theEmbeddedJobHostsTheSuiteItsToolsConfigDefines(@TempDir Path dir) throws Exception {
        Path tools = Files.writeString(dir.resolve("tools.conf"), "toolcoach.tools.classes { finance-lc4j = \""
                + LangChain4jFinanceTools.class.getName() + "\" }\n");
        // the tiny recipe over the defaults, whose warm-up would hold out more traces than the tiny one makes
        Path recipe = Files.writeString(dir.resolve("recipe.json"), JobCluster.TINY_RECIPE.replace("\"warmupTraces\": 8,",
                "\"warmupTraces\": 8, \"warmupHeldOut\": 0, \"warmupPatience\": 0, \"warmupTargetLoss\": 0,"));

        CliRun train = new CliRun();
        int code = train.execute("train", "--task", "finance", "--data-dir", SharedData.require(".").toString(), "--recipe",
                recipe.toString(), "--tools-conf", tools.toString(), "--tool-suite", "finance-lc4j", "--mode", "sync",
                "--athletes", "2", "--runs", dir.resolve("runs").toString(), "--name", "lc4j", "--device", "cpu");

        assertEquals(0, code, train.err.toString());
        Path run = dir.resolve("runs/lc4j");
        JsonNode config = new ObjectMapper().readTree(run.resolve("config.json").toFile());
        assertEquals("finance-lc4j", config.get("tool_suite").asText());
        // the oracle's texts ran on this process's node against the hosted class (the node hosts no built-in suite)
        List<ToolResult> oracle = new ArrayList<>();
        try (var files = Files.list(run.resolve("teacher-cache"))) {
            for (Path f : files.toList()) {
                TraceJson.read(f).items().forEach(t -> t.turns().forEach(turn -> oracle.addAll(turn.actionOutput())));
            }
        }
        String wrong = oracle.stream().filter(r -> r.status() != ToolResult.Status.OK || !FINANCE_TOOLS.contains(r.call().name()))
                .map(r -> r.call().name() + " " + r.status() + " " + r.text()).limit(10).collect(Collectors.joining("\n"));
        assertTrue(!oracle.isEmpty() && wrong.isEmpty(), wrong);
        assertEquals(1, TraceJson.read(run.resolve("traces.jsonl")).items().stream().map(t -> t.metadata().get("job_step")).distinct().count(),
                "one GRPO step of the athletes' rollouts");

        Path other = Files.writeString(dir.resolve("other.conf"), "toolcoach.tools.classes { mine = \"com.acme.Mine\" }\n");
        CliRun refused = new CliRun();
        assertEquals(2, refused.execute("train", "--task", "finance", "--tools-conf", other.toString(), "--tool-suite", "finance-lc4j",
                "--runs", dir.resolve("runs").toString(), "--name", "x"));
        assertEquals("train: tools config " + other + " defines no suite 'finance-lc4j' (toolcoach.tools.classes or "
                + "toolcoach.tools.mcp.servers)", refused.err.toString().strip());
        assertTrue(!Files.exists(dir.resolve("runs/x")), "nothing ran");
    }
}
