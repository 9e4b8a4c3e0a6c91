package dev.toolcoach.coachnode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.model.config.ModelFamily;
import dev.toolcoach.tasks.calling.CallingExample;
import com.sun.net.httpserver.HttpServer;
import dev.toolcoach.openai.ChatMessage;
import dev.toolcoach.openai.ChatRequest;
import dev.toolcoach.openai.ChatResponse;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.openai.OpenAiConfig;
import dev.toolcoach.openai.ToolDefinition;
import dev.toolcoach.tasks.datasets.BfclLoader;
import dev.toolcoach.tasks.datasets.XlamLoader;
import dev.toolcoach.testkit.SharedData;
import dev.toolcoach.testkit.StyleTemplates;
import dev.toolcoach.testkit.TinyChatModel;
import dev.toolcoach.testkit.ToolCallingModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

    /**
     * Tool-N1 on a user's own file: ten copies of the xLAM sample's first item train a user's Qwen3 folder by call-match
     * with no task named (the file is the task, a fifth held out); eval finds the dataset and reward in the run, and
     * serve answers with the adapter: the call the item wants, as an OpenAI tool call. The same file trained on a reward
     * server (a real one on loopback) scores by the server's answers, which see the rollouts' calls and the gold calls.
     */
    @Test
    void aUsersXlamFileTrainsByCallMatchOrARewardServerAndTheAdapterServes(@TempDir Path dir) throws Exception {
        JsonNode item = JSON.readTree(SharedData.require("toolcall/toolalpaca_xlam_format.json").toFile()).get(0);
        com.fasterxml.jackson.databind.node.ArrayNode copies = JSON.createArrayNode();
        for (int i = 0; i < 10; i++) copies.add(item.deepCopy());
        Path file = dir.resolve("mine.json");
        JSON.writeValue(file.toFile(), copies);
        CallingExample first = new XlamLoader().load(file, "xlam").items().get(0);
        String gold = first.oracleCalls().get(0).name();
        Path model = ToolCallingModel.write(dir.resolve("qwen3"), ModelFamily.QWEN3, TinyChatModel.SPECIALS, "<|im_end|>",
                ActionFormat.HERMES.codec().writeCalls(first.oracleCalls()));
        Files.writeString(model.resolve("chat_template.jinja"), Files.readString(SharedData.require("chat_templates/templates/qwen3.jinja")));
        Path recipe = Files.writeString(dir.resolve("recipe.json"), RECIPE.replace("\"maxTurns\": 2", "\"maxTurns\": 1"));

        CliRun train = new CliRun();
        assertEquals(0, train.execute("train", "--model", model.toString(), "--dataset", file.toString(), "--reward", "call-match",
                "--recipe", recipe.toString(), "--steps", "1", "--runs", dir.resolve("runs").toString(), "--name", "x1", "--device", "cpu"),
                train.err.toString());
        JsonNode config = JSON.readTree(dir.resolve("runs/x1/config.json").toFile());
        assertEquals("mine", config.get("task").asText());
        assertEquals("call-match", config.get("reward").asText());
        assertEquals("xlam", config.at("/dataset/layout").asText());
        assertEquals(8, config.get("train_examples").asInt(), "a fifth of the file held out for the test");
        JsonNode evals = JSON.readTree(dir.resolve("runs/x1/eval.json").toFile());
        assertEquals(1.0, evals.at("/before_training/accuracy").asDouble(), evals.toString());

        CliRun eval = new CliRun();
        assertEquals(0, eval.execute("eval", "--adapter", dir.resolve("runs/x1/adapter").toString(), "--device", "cpu"), eval.err.toString());
        assertEquals(1.0, JSON.readTree(eval.out.toString()).get("accuracy").asDouble(), eval.out.toString());

        // an SFT warm-up on the file's gold calls before RL: the user's folder trained on them whole, then evaluated
        Path warmRecipe = Files.writeString(dir.resolve("warm.json"), RECIPE.replace("\"maxTurns\": 2", "\"maxTurns\": 1")
                .replace("\"maxNewTokens\": 24", "\"maxNewTokens\": 512").replace("}", ", \"warmupEpochs\": 2, \"warmupBatch\": 4, \"warmupHeldOut\": 0, \"warmupTargetLoss\": 0}"));
        CliRun warm = new CliRun();
        assertEquals(0, warm.execute("train", "--model", model.toString(), "--dataset", file.toString(), "--reward", "call-match",
                "--recipe", warmRecipe.toString(), "--warmup-traces", "8", "--steps", "0", "--runs", dir.resolve("runs").toString(),
                "--name", "w1", "--device", "cpu"), warm.err.toString());
        JsonNode warmup = JSON.readTree(dir.resolve("runs/w1/warmup.json").toFile());
        assertEquals(2, warmup.get("passes").size(), warmup.toString());
        assertEquals(1.0, warmup.get("teacher_accuracy").asDouble(), "the gold calls are the demonstrations");
        assertTrue(Files.isRegularFile(dir.resolve("runs/w1/distilled/config.json")));
        assertTrue(JSON.readTree(dir.resolve("runs/w1/eval.json").toFile()).has("after_warmup"));

        // the adapter continued: the first evaluation scores the folder with it, training goes on from it; the job given
        // as a spec file, the body POST /jobs takes, and a flag replacing one of its values
        com.fasterxml.jackson.databind.node.ObjectNode spec = JSON.createObjectNode().put("model", model.toString())
                .put("adapter", dir.resolve("runs/x1/adapter").toString()).put("dataset", file.toString()).put("reward", "call-match")
                .put("steps", 1).put("name", "x3").put("runs_dir", dir.resolve("runs").toString()).put("seed", 4);
        spec.set("recipe", JSON.readTree(recipe.toFile()));
        com.fasterxml.jackson.databind.node.ArrayNode held = JSON.createArrayNode();
        for (int i = 0; i < 3; i++) held.add(item.deepCopy());
        Path heldFile = dir.resolve("held.json");
        JSON.writeValue(heldFile.toFile(), held);
        spec.put("test_dataset", heldFile.toString()); // its test split: all 10 of mine.json trained on
        Path specFile = dir.resolve("job.json");
        JSON.writeValue(specFile.toFile(), spec);
        CliRun continued = new CliRun();
        assertEquals(0, continued.execute("train", "--spec", specFile.toString(), "--seed", "5", "--device", "cpu"), continued.err.toString());
        JsonNode x3 = JSON.readTree(dir.resolve("runs/x3/config.json").toFile());
        assertEquals(5, x3.get("seed").asInt(), "the flag over the file");
        assertEquals(10, x3.get("train_examples").asInt());
        assertEquals(3, x3.get("test_examples").asInt());
        CliRun heldEval = new CliRun();
        assertEquals(0, heldEval.execute("eval", "--adapter", dir.resolve("runs/x3/adapter").toString(), "--device", "cpu"),
                heldEval.err.toString());
        assertEquals(3, JSON.readTree(heldEval.out.toString()).get("examples").asInt(), "eval scores the run's given test split");
        CliRun badSpec = new CliRun();
        Files.writeString(dir.resolve("bad.json"), "{\"task\": \"finance\", \"algorithm\": \"ppo\"}");
        assertEquals(2, badSpec.execute("train", "--spec", dir.resolve("bad.json").toString()));
        assertEquals("train: job spec " + dir.resolve("bad.json") + ": unknown algorithm 'ppo'; valid: grpo, dpo, sft",
                badSpec.err.toString().strip());
        assertEquals(dir.resolve("runs/x1/adapter").toAbsolutePath().normalize().toString(),
                JSON.readTree(dir.resolve("runs/x3/config.json").toFile()).get("adapter").asText());
        assertTrue(Files.isRegularFile(dir.resolve("runs/x3/adapter/adapter_model.safetensors")));
        CliRun notAnAdapter = new CliRun();
        assertEquals(2, notAnAdapter.execute("train", "--model", model.toString(), "--adapter", model.toString(), "--dataset",
                file.toString(), "--runs", dir.resolve("runs").toString(), "--name", "x4", "--device", "cpu"));
        assertTrue(notAnAdapter.err.toString().startsWith("train: adapter: ") && notAnAdapter.err.toString().contains("adapter_config.json"),
                notAnAdapter.err.toString());

        CliRun serve = new CliRun();
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> serve.execute("serve", "--model", model.toString(),
                "--adapter", dir.resolve("runs/x1/adapter").toString(), "--port", "0", "--api-key", "sk-x1"));
        try {
            OpenAiClient client = new OpenAiClient(OpenAiConfig.of(awaitServing(serve, exit), "qwen3").withApiKey("sk-x1")
                    .withRequestTimeout(Duration.ofSeconds(60)));
            List<ToolDefinition> tools = first.functions().stream()
                    .map(f -> ToolDefinition.function(f.name(), f.description(), f.toJsonSchema().get("parameters"))).toList();
            ChatResponse reply = client.chat(ChatRequest.of(List.of(ChatMessage.user(first.query()))).withTools(tools)
                    .withTemperature(0).withMaxTokens(64));
            assertEquals(gold, reply.message().toolCalls().get(0).function().name(), reply.toString());
        } finally {
            ((ServeCommand) serve.cli.getSubcommands().get("serve").getCommand()).stop();
            assertEquals(0, exit.get(30, TimeUnit.SECONDS), serve.err.toString());
        }

        List<JsonNode> posted = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/score", exchange -> {
            JsonNode body = JSON.readTree(exchange.getRequestBody());
            posted.add(body);
            com.fasterxml.jackson.databind.node.ArrayNode scores = JSON.createObjectNode().putArray("scores");
            String wanted = body.at("/example/gold_calls/0/name").asText();
            body.get("rollouts").forEach(r -> scores.add(r.at("/turns/0/calls/0/name").asText().equals(wanted) ? 1.0 : 0.0));
            byte[] out = JSON.writeValueAsBytes(JSON.createObjectNode().set("scores", scores));
            exchange.sendResponseHeaders(200, out.length);
            exchange.getResponseBody().write(out);
            exchange.close();
        });
        server.start();
        try {
            CliRun served = new CliRun();
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/score";
            assertEquals(0, served.execute("train", "--model", model.toString(), "--dataset", file.toString(), "--reward", url,
                    "--recipe", recipe.toString(), "--steps", "1", "--runs", dir.resolve("runs").toString(), "--name", "x2",
                    "--device", "cpu"), served.err.toString());
            assertEquals(1.0, JSON.readTree(dir.resolve("runs/x2/eval.json").toFile()).at("/before_training/accuracy").asDouble());
            assertTrue(posted.stream().anyMatch(b -> b.get("rollouts").size() == 2), "training posted whole groups of 2");
            assertEquals(gold, posted.get(0).at("/example/gold_calls/0/name").asText());
        } finally {
            server.stop(0);
        }
    }

    private static String awaitServing(CliRun serve, CompletableFuture<Integer> exit) throws InterruptedException {
        Pattern serving = Pattern.compile("serving \\S+ at (http://127\\.0\\.0\\.1:\\d+/v1)");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            Matcher m = serving.matcher(serve.out.toString());
            if (m.find()) return m.group(1);
            if (exit.isDone()) throw new AssertionError("serve exited early: " + exit.join() + " " + serve.err);
            TimeUnit.MILLISECONDS.sleep(20);
        }
        throw new AssertionError("serve did not report its address within 60 s; stderr: " + serve.err);
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
