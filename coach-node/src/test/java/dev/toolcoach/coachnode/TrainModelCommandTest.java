package dev.toolcoach.coachnode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.model.config.ModelFamily;
import dev.toolcoach.tasks.calling.CallingExample;
import dev.toolcoach.tasks.datasets.BfclLoader;
import dev.toolcoach.testkit.SharedData;
import dev.toolcoach.testkit.StyleTemplates;
import dev.toolcoach.testkit.TinyChatModel;
import dev.toolcoach.testkit.ToolCallingModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code train --model}: a user's folder of each chat family, with its own chat template, trained as given through the
 * embedded job: no task-sized model is built and no warm-up runs, the agent acts in the family's native tool-call format
 * (its calls reach the task's tools), the adapter the job saves merges into the folder with {@code merge}, and
 * {@code eval} finds the run's model and format. The model
 * answers every turn with one fixed call (ToolCallingModel), so the job's rewards are alike and its groups carry no
 * signal: that GRPO learns over these families is ClusterTrainingRunTest's.
 */
class TrainModelCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String RECIPE = """
            {"groupSize": 2, "groupsPerStep": 1, "oversampling": 1, "maxTurns": 2, "maxTotalTokens": 4096, "maxNewTokens": 24,
             "testExamples": 4, "passAtKQueries": 1, "engineBatch": 4}""";

    private record Family(ModelFamily family, List<String> specials, String endOfTurn, String template, String format, String reply) {
    }

    @Test
    void aUsersFolderOfEachFamilyTrainsInItsNativeFormatAndItsAdapterMerges(@TempDir Path dir) throws Exception {
        String add = "{\"name\": \"add\", \"arguments\": {\"a\": 2, \"b\": 3}}";
        List<Family> families = List.of(
                new Family(ModelFamily.QWEN2, TinyChatModel.SPECIALS, "<|im_end|>",
                        Files.readString(SharedData.require("chat_templates/templates/qwen2.5-instruct.jinja")), "hermes",
                        "<tool_call>\n" + add + "\n</tool_call>"),
                new Family(ModelFamily.QWEN3, TinyChatModel.SPECIALS, "<|im_end|>",
                        Files.readString(SharedData.require("chat_templates/templates/qwen3.jinja")), "hermes",
                        "<tool_call>\n" + add + "\n</tool_call>"),
                new Family(ModelFamily.LLAMA, List.of("<|begin_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>"),
                        "<|eot_id|>", StyleTemplates.LLAMA3, "llama3-json", "{\"name\": \"add\", \"parameters\": {\"a\": 2, \"b\": 3}}"),
                new Family(ModelFamily.PHI3, List.of("<|system|>", "<|user|>", "<|assistant|>", "<|tool|>", "<|/tool|>", "<|end|>",
                        "<|endoftext|>"), "<|end|>", Files.readString(SharedData.require("chat_templates/templates/phi-4-mini-instruct.jinja")),
                        "phi", "functools[" + add + "]"));
        Path recipe = Files.writeString(dir.resolve("recipe.json"), RECIPE);

        for (Family f : families) {
            String name = f.family().modelType();
            Path model = ToolCallingModel.write(dir.resolve(name), f.family(), f.specials(), f.endOfTurn(), f.reply());
            Files.writeString(model.resolve("chat_template.jinja"), f.template());
            CliRun train = new CliRun();
            int code = train.execute("train", "--model", model.toString(), "--task", "arithmetic", "--recipe", recipe.toString(),
                    "--steps", "1", "--runs", dir.resolve("runs").toString(), "--name", name, "--device", "cpu");

            assertEquals(0, code, name + ": " + train.err);
            Path run = dir.resolve("runs").resolve(name);
            String table = train.out.toString();
            assertTrue(table.startsWith("evaluation ") && table.contains("before_training") && table.contains("after_grpo")
                    && !table.contains("after_warmup"), name + ": evaluated as given and after training, no warm-up:\n" + table);
            assertFalse(Files.exists(run.resolve("init")) || Files.exists(run.resolve("distilled")), name + ": no model was built");
            JsonNode config = JSON.readTree(run.resolve("config.json").toFile());
            assertEquals(f.format(), config.get("action_format").asText(), name);
            assertEquals(model.toAbsolutePath().normalize().toString(), config.get("model").asText(), name);
            assertTrue(Files.readString(run.resolve("tool_use.jsonl")).contains("\"add\""), name + ": the native calls reached the tools");

            CliRun merge = new CliRun();
            assertEquals(0, merge.execute("merge", "--model", model.toString(), "--adapter", run.resolve("adapter").toString(),
                    "--out", dir.resolve(name + "-merged").toString()), name + ": " + merge.err);
            assertTrue(Files.isRegularFile(dir.resolve(name + "-merged/model.safetensors")), name);
        }
    }

    /**
     * Tool-N1 from the command line: a function-calling dataset (BFCL's layout; here ten copies of one question) trains
     * a user's Qwen3 folder with no tool suite (each example offers its own functions, nothing runs them), and the
     * reward reads the calls in the model's native format: the folder, which answers with the Hermes call the question
     * wants, scores every test question right, where the Tool-N1 reading (think block, Tool-N1 tags) gave none.
     */
    @Test
    void aFunctionCallingDatasetTrainsAUsersFolderScoredInItsNativeFormat(@TempDir Path dir) throws Exception {
        Path bfcl = SharedData.require("bfcl");
        JsonNode question = JSON.readTree(Files.readAllLines(bfcl.resolve("BFCL_v3_simple.json")).get(0));
        JsonNode answer = JSON.readTree(Files.readAllLines(bfcl.resolve("possible_answer/BFCL_v3_simple.json")).get(0));
        StringBuilder questions = new StringBuilder();
        StringBuilder answers = new StringBuilder();
        for (int i = 0; i < 10; i++) {
            questions.append(((com.fasterxml.jackson.databind.node.ObjectNode) question.deepCopy()).put("id", "simple_" + i)).append('\n');
            answers.append(((com.fasterxml.jackson.databind.node.ObjectNode) answer.deepCopy()).put("id", "simple_" + i)).append('\n');
        }
        Path data = Files.createDirectories(dir.resolve("data/bfcl/possible_answer"));
        Files.writeString(dir.resolve("data/bfcl/BFCL_v3_simple.json"), questions);
        Files.writeString(data.resolve("BFCL_v3_simple.json"), answers);
        for (String category : List.of("multiple", "parallel")) { // the registry reads each category's files
            Files.writeString(dir.resolve("data/bfcl/BFCL_v3_" + category + ".json"), "");
            Files.writeString(data.resolve("BFCL_v3_" + category + ".json"), "");
        }
        CallingExample first = new BfclLoader().load(dir.resolve("data/bfcl/BFCL_v3_simple.json"),
                data.resolve("BFCL_v3_simple.json")).items().get(0);
        Path model = ToolCallingModel.write(dir.resolve("qwen3"), ModelFamily.QWEN3, TinyChatModel.SPECIALS, "<|im_end|>",
                ActionFormat.HERMES.codec().writeCalls(first.oracleCalls()));
        Files.writeString(model.resolve("chat_template.jinja"), Files.readString(SharedData.require("chat_templates/templates/qwen3.jinja")));
        Path recipe = Files.writeString(dir.resolve("recipe.json"), RECIPE.replace("\"maxTurns\": 2", "\"maxTurns\": 1"));

        CliRun train = new CliRun();
        int code = train.execute("train", "--model", model.toString(), "--task", "bfcl-simple", "--data-dir", dir.resolve("data").toString(),
                "--recipe", recipe.toString(), "--steps", "1", "--runs", dir.resolve("runs").toString(), "--name", "n1", "--device", "cpu");

        assertEquals(0, code, train.err.toString());
        JsonNode evals = JSON.readTree(dir.resolve("runs/n1/eval.json").toFile());
        assertEquals(2, evals.at("/before_training/examples").asInt(), evals.toString());
        assertEquals(1.0, evals.at("/before_training/accuracy").asDouble(), "every call read in Hermes and matched: " + evals);
        assertEquals("hermes", JSON.readTree(dir.resolve("runs/n1/config.json").toFile()).get("action_format").asText());

        // eval finds the run's model and format in its config.json
        CliRun eval = new CliRun();
        assertEquals(0, eval.execute("eval", "--task", "bfcl-simple", "--data-dir", dir.resolve("data").toString(), "--adapter",
                dir.resolve("runs/n1/adapter").toString(), "--device", "cpu"), eval.err.toString());
        assertEquals(1.0, JSON.readTree(eval.out.toString()).get("accuracy").asDouble(), eval.out.toString());
    }

    @Test
    void aFolderOfAnUnsupportedFamilyOrWithoutWeightsIsOneLineAndExit2(@TempDir Path dir) throws Exception {
        Path gpt2 = Files.createDirectories(dir.resolve("gpt2"));
        Files.writeString(gpt2.resolve("config.json"), "{\"model_type\": \"gpt2\"}");
        Path bare = TinyChatModel.write(dir.resolve("bare"), 3);
        Files.delete(bare.resolve("model.safetensors"));
        for (Path model : List.of(gpt2, bare)) {
            CliRun run = new CliRun();
            assertEquals(2, run.execute("train", "--model", model.toString(), "--task", "finance", "--runs", dir.resolve("runs").toString()));
            String err = run.err.toString().strip();
            assertTrue(err.startsWith("train: model: ") && !err.contains("\n"), err);
        }
        assertFalse(Files.exists(dir.resolve("runs")), "nothing was written");
    }
}
