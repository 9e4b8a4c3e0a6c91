package dev.toolcoach.coachnode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.brain.dataset.ExampleJsonl;
import dev.toolcoach.openai.OpenAiServer;
import dev.toolcoach.openai.ServerSettings;
import dev.toolcoach.testkit.FreePorts;
import dev.toolcoach.testkit.ScriptedBackend;
import dev.toolcoach.testkit.TinyChatModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The generate-tasks and distill commands run as a user runs them (distill end to end: coach-node's DistillSubcommandTest), their stdout and stderr captured. */
class CommandsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Exit code, stdout and stderr of one command run. */
    record Run(int code, String out, String err) {
        JsonNode summary() throws Exception {
            return JSON.readTree(out);
        }
    }

    static Run run(Object command, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(command);
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int code = cli.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void generateTasksWritesADatasetAndPrintsTheCounts(@TempDir Path dir) throws Exception {
        ScriptedBackend backend = new ScriptedBackend("gen");
        backend.reply("{\"queries\": [{\"query\": \"What is 12 times 7?\", \"gold_answer\": \"84\", \"tool_calls\": "
                + "[{\"name\": \"multiply\", \"arguments\": {\"a\": 12, \"b\": 7}}]}, {\"query\": \"Add 2 and 3.\", "
                + "\"gold_answer\": \"5\", \"tool_calls\": [{\"name\": \"add\", \"arguments\": {\"a\": 2, \"b\": 3}}]}, "
                + "{\"query\": \"what is 12 TIMES 7\", \"tool_calls\": [{\"name\": \"multiply\", \"arguments\": {\"a\": 12, \"b\": 7}}]}]}");
        Path out = dir.resolve("tasks.jsonl");
        try (OpenAiServer server = OpenAiServer.start(backend, ServerSettings.loopback(0))) {
            Run r = run(new GenerateTasksCommand(), "--base-url", server.baseUrl(), "--model", "gen",
                    "--task-description", "Do arithmetic", "--tools", "arithmetic", "--num-examples", "2",
                    "--out", out.toString());

            assertEquals(0, r.code(), r.err());
            JsonNode s = r.summary();
            assertEquals(2, s.get("kept").asInt());
            assertEquals(1, s.get("rejected").get("DUPLICATE").asInt());
            assertEquals(2, ExampleJsonl.read(out).items().size());
            assertEquals("84", ExampleJsonl.read(out).items().get(0).goldAnswer());
        }
    }

    @Test
    void generateTasksReportsAnUnreachableEndpointInOneLine(@TempDir Path dir) throws Exception {
        int port = FreePorts.pick();
        Run r = run(new GenerateTasksCommand(), "--base-url", "http://127.0.0.1:" + port + "/v1", "--model", "m", "--retries", "0",
                "--task-description", "Do arithmetic", "--tools", "arithmetic", "--out", dir.resolve("x.jsonl").toString());

        assertEquals(CommandOutput.RUN_ERROR, r.code());
        assertTrue(r.err().contains("cannot reach") && r.err().contains("nothing written"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace");
        assertFalse(Files.exists(dir.resolve("x.jsonl")));
    }

    @Test
    void generateTasksRejectsAnUnknownSuite(@TempDir Path dir) {
        Run r = run(new GenerateTasksCommand(), "--base-url", "http://127.0.0.1:9/v1", "--task-description", "x",
                "--tools", "weather", "--out", dir.resolve("x.jsonl").toString());

        assertEquals(CommandOutput.INPUT_ERROR, r.code());
        assertTrue(r.err().contains("no built-in tool suite named 'weather'"), r.err());
    }

    @Test
    void distillNamesTheBadLineOfADataset(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data.jsonl");
        Files.writeString(data, "{\"id\": \"a\", \"messages\": [{\"role\": \"user\", \"content\": \"2+2?\"}], \"gold_answer\": \"4\"}\n"
                + "{\"id\": \"b\", \"messages\": [{\"role\": \"user\", \"content\": \"3+3?\"}]\n");

        Run r = run(new DistillCommand(), "--dataset", data.toString(), "--tools", "arithmetic", "--oracle",
                "--student", TinyChatModel.write(dir.resolve("student"), 1).toString(), "--work-dir", dir.resolve("work").toString());

        assertEquals(CommandOutput.INPUT_ERROR, r.code());
        assertTrue(r.err().contains("data.jsonl line 2"), r.err());
        assertFalse(Files.exists(dir.resolve("work")));
    }

    @Test
    void trainRefusesADatasetWithoutAUsableExampleInOneLineAndWritesNothing(@TempDir Path dir) throws Exception {
        Path data = Files.writeString(dir.resolve("data.jsonl"), "{\"id\": \"a\"}\nnot json\n");
        Path runs = dir.resolve("runs");
        for (Path dataset : new Path[] {data, dir.resolve("missing.jsonl")}) {
            Run r = run(new TrainCommand(), "--task", "finance", "--dataset", dataset.toString(), "--runs", runs.toString());

            assertEquals(CommandOutput.INPUT_ERROR, r.code());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().contains(dataset.getFileName().toString()), r.err());
            assertFalse(Files.exists(runs), "nothing was written");
        }
    }

    @Test
    void trainRefusesBadTileSettingsInOneLineAndWritesNothing(@TempDir Path dir) throws Exception {
        Path runs = dir.resolve("runs");
        Path adapt = Files.writeString(dir.resolve("tile.json"), "{\"equivalent\": [[\"npv\"]]}");
        Run badAdapt = run(new TrainCommand(), "--task", "finance", "--adapt", adapt.toString(), "--runs", runs.toString());
        assertEquals(CommandOutput.INPUT_ERROR, badAdapt.code());
        assertEquals("train: " + adapt + ": equivalent[0] needs at least two tools, has 1", badAdapt.err().strip());
        Files.writeString(adapt, "{\"equivalent\": [[\"npv\", \"irr\"]], \"hint\": 1}");
        Run badHint = run(new TrainCommand(), "--task", "finance", "--adapt", adapt.toString(), "--runs", runs.toString());
        assertEquals(CommandOutput.INPUT_ERROR, badHint.code());
        assertEquals("train: " + adapt + ": field hint must be true or false", badHint.err().strip());
        Run badReward = run(new TrainCommand(), "--task", "finance", "--tool-reward", "1,2", "--runs", runs.toString());
        assertEquals(CommandOutput.INPUT_ERROR, badReward.code());
        assertTrue(badReward.err().contains("four numbers"), badReward.err());
        assertFalse(Files.exists(runs), "nothing was written");
    }

    @Test
    void trainRefusesAnUnknownActionFormatInOneLineAndWritesNothing(@TempDir Path dir) throws Exception {
        Path runs = dir.resolve("runs");
        Run badOption = run(new TrainCommand(), "--task", "finance", "--action-format", "hermes", "--runs", runs.toString());
        assertEquals(CommandOutput.INPUT_ERROR, badOption.code());
        assertEquals("train: --action-format: unknown action format 'hermes'; a model from scratch acts in tool-n1-compact, "
                + "tool-n1, code-act", badOption.err().strip());
        Path recipe = Files.writeString(dir.resolve("recipe.json"), "{\"actionFormat\": \"python\"}");
        Run badRecipe = run(new TrainCommand(), "--task", "finance", "--recipe", recipe.toString(), "--runs", runs.toString());
        assertEquals(CommandOutput.INPUT_ERROR, badRecipe.code());
        assertEquals(1, badRecipe.err().strip().lines().count(), badRecipe.err());
        assertTrue(badRecipe.err().contains(recipe + ": recipe field actionFormat: unknown action format 'python'"), badRecipe.err());
        assertFalse(Files.exists(runs), "nothing was written");
    }

    /** Recipe files as a user gets them wrong: each one line naming the place or the field, no Jackson internals. */
    @Test
    void aBadRecipeFileIsOneLineNamingThePlaceOrTheField(@TempDir Path dir) throws Exception {
        Path runs = dir.resolve("runs");
        Map<String, String> cases = Map.of(
                "{\"groupSize\": 8,\n \"groupsPerStep\": oops}", ": not valid JSON at line 2, column ",
                "{\"groupSize\": \"eight\"}", ": field groupSize is missing or has the wrong type",
                "{\"groupSize\": -2, \"groupsPerStep\": 4}", ": recipe field groupSize must be at least 1, was -2",
                "[8, 8]", ": a recipe must be a JSON object");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            Path recipe = Files.writeString(dir.resolve("recipe.json"), c.getKey());
            Run bad = run(new TrainCommand(), "--task", "finance", "--recipe", recipe.toString(), "--runs", runs.toString());
            assertEquals(CommandOutput.INPUT_ERROR, bad.code());
            assertEquals(1, bad.err().strip().lines().count(), bad.err());
            assertTrue(bad.err().contains("cannot read the recipe " + recipe + c.getValue()), c.getKey() + " -> " + bad.err());
            assertFalse(bad.err().contains("java.") || bad.err().contains("Source:") || bad.err().contains("`"), bad.err());
        }
        assertFalse(Files.exists(runs), "nothing was written");
    }

    @Test
    void distillRefusesTheOracleOnExamplesWithoutSolutions(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data.jsonl");
        Files.writeString(data, "{\"id\": \"a\", \"messages\": [{\"role\": \"user\", \"content\": \"2+2?\"}], \"gold_answer\": \"4\"}\n");

        Run r = run(new DistillCommand(), "--dataset", data.toString(), "--tools", "arithmetic", "--oracle",
                "--student", TinyChatModel.write(dir.resolve("student"), 1).toString(), "--work-dir", dir.resolve("work").toString());

        assertEquals(CommandOutput.INPUT_ERROR, r.code());
        assertTrue(r.err().contains("needs examples with solutions"), r.err());
        assertFalse(Files.exists(dir.resolve("work")));
    }
}
