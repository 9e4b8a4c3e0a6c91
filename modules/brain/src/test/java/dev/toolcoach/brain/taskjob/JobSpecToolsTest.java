package dev.toolcoach.brain.taskjob;

import dev.toolcoach.testkit.TinyChatModel;
import dev.toolcoach.brain.endpoint.OutboundEndpoints;
import dev.toolcoach.testkit.SharedData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The tool_retrieval, judge and tool_suite fields of POST /jobs: read, confined to the node's data folder, checked before a run. */
class JobSpecToolsTest {

    @Test
    void retrievalAndJudgeFromTheNetworkStayInsideTheDataFolderAndNameEndpointsByUrl(@TempDir Path dir) throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        Files.createDirectories(data.resolve("bfcl"));
        Files.writeString(data.resolve("bfcl/q.json"), "{}\n");
        TrainingJobSpec options = TrainingJobSpec.fromNetwork("""
                {"task": "finance", "tool_retrieval": {"mode": "hybrid", "k": 2, "distractor_suites": ["sql"],
                 "distractor_schemas": ["bfcl/q.json"], "model": {"url": "http://127.0.0.1:9/v1", "model": "picker"}},
                 "judge": {"mode": "relative", "endpoint": {"url": "http://127.0.0.1:9/v1", "model": "judge"}}}""", dir.resolve("runs"), data, Path.of("models"));
        assertEquals(data.resolve("bfcl/q.json").toAbsolutePath().normalize().toString(), options.tools().distractorSchemas().get(0));
        assertEquals(2, options.tools().retrieval().orElseThrow().k());
        assertEquals("relative", options.judge().mode());

        assertTrue(assertThrows(IllegalArgumentException.class, () -> TrainingJobSpec.fromNetwork("""
                {"task": "finance", "tool_retrieval": {"distractor_schemas": ["../secret.json"]}}""", dir.resolve("runs"), data, Path.of("models")))
                .getMessage().startsWith("tool_retrieval.distractor_schemas must name a file inside the data folder"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TrainingJobSpec.fromNetwork("""
                {"task": "finance", "judge": {"endpoint": {"model": "/models/big"}}}""", dir.resolve("runs"), data, Path.of("models")))
                .getMessage().contains("judge.endpoint must name a url"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TaskTrainingJob.validate(TrainingJobSpec.fromNetwork("""
                {"task": "finance", "tool_retrieval": {"mode": "llm"}}""", dir.resolve("runs"), data, Path.of("models"))))
                .getMessage().contains("asks a model"));
        assertNull(TrainingJobSpec.fromNetwork("{\"task\": \"finance\"}", dir.resolve("runs"), data, Path.of("models")).judge());
    }

    @Test
    void aHostedToolSuiteIsReadFromTheRequestAndNeedsACluster(@TempDir Path dir) throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        TrainingJobSpec options = TrainingJobSpec.fromNetwork("""
                {"task": "finance", "tool_suite": " finance-mcp ", "steps": 1}""", dir.resolve("runs"), data, Path.of("models"));
        assertEquals("finance-mcp", options.toolSuite());
        assertNull(TrainingJobSpec.fromNetwork("{\"task\": \"finance\"}", dir.resolve("runs"), data, Path.of("models")).toolSuite());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TrainingJobSpec.fromNetwork("""
                {"task": "finance", "tool_suite": " "}""", dir.resolve("runs"), data, Path.of("models")))
                .getMessage().contains("tool_suite must name a suite"));
        IllegalArgumentException embedded = assertThrows(IllegalArgumentException.class,
                () -> TaskTrainingJob.run(options, java.util.Optional.empty(), phase -> { }));
        assertTrue(embedded.getMessage().startsWith("tool_suite 'finance-mcp' is a suite the cluster's tool nodes host"),
                embedded.getMessage());
        assertTrue(!Files.exists(dir.resolve("runs/r1/config.json")), "nothing ran");
    }

    /**
     * A request's model is a folder under the node's models folder, never one of its own choosing; with a model the
     * warm-up is off unless the request asks for one.
     */
    @Test
    void aModelFromTheNetworkIsAFolderInsideTheModelsFolder(@TempDir Path dir) throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        Path models = Files.createDirectories(dir.resolve("models"));
        Files.createDirectories(models.resolve("qwen"));
        Files.createSymbolicLink(models.resolve("escape"), Files.createDirectories(dir.resolve("elsewhere")));
        TrainingJobSpec options = TrainingJobSpec.fromNetwork("{\"task\": \"finance\", \"model\": \"qwen\"}", dir.resolve("runs"),
                data, models);
        assertEquals(models.resolve("qwen").toAbsolutePath().normalize(), options.model());
        assertEquals(0, options.recipe().warmup().traces(), "a user's model is trained as given");
        assertEquals(16, TrainingJobSpec.fromNetwork("{\"task\": \"finance\", \"model\": \"qwen\", \"warmup_traces\": 16}",
                dir.resolve("runs"), data, models).recipe().warmup().traces());
        for (String outside : new String[] {dir.resolve("models/qwen").toAbsolutePath().toString(), "../data", "qwen/../../runs", "escape"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TrainingJobSpec.fromNetwork(
                    "{\"task\": \"finance\", \"model\": \"" + outside + "\"}", dir.resolve("runs"), data, models));
            assertTrue(e.getMessage().startsWith("model must name a folder inside the models folder")
                    || e.getMessage().startsWith("model must be a path relative to the models folder"), outside + ": " + e.getMessage());
        }
        assertNull(TrainingJobSpec.fromNetwork("{\"task\": \"finance\"}", dir.resolve("runs"), data, models).model());
    }

    /**
     * A request may name a dataset in the data folder as its task and a reward by name; a reward server must be under
     * one of the node's endpoints, called with that endpoint's key.
     */
    @Test
    void aDatasetIsTheTaskAndTheRewardIsNamedOrAServerTheNodeMayCall(@TempDir Path dir) throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        Files.copy(SharedData.require("toolcall/toolalpaca_xlam_format.json"), data.resolve("mine.json"));
        TrainingJobSpec options = TrainingJobSpec.fromNetwork("{\"dataset\": \"mine.json\", \"reward\": \"call-match\", \"model\": \"m\"}",
                dir.resolve("runs"), data, dir.resolve("models"));
        assertNull(options.task());
        assertEquals("call-match", options.reward().name());
        assertEquals("mine.json", options.taskLabel());
        assertTrue(options.name().startsWith("mine-"), options.name());

        TrainingJobSpec served = TrainingJobSpec.fromNetwork("{\"task\": \"finance\", \"reward\": \"http://127.0.0.1:9/score\"}",
                dir.resolve("runs"), data, dir.resolve("models"));
        assertEquals("reward is not an endpoint this node may call (its toolcoach.jobs.endpoints lists those it may)",
                assertThrows(IllegalArgumentException.class, () -> TaskTrainingJob.validate(served)).getMessage());
        TaskTrainingJob.validate(served.toBuilder().endpoints(OutboundEndpoints.named(List.of("http://127.0.0.1:9"), "k")).build());

        assertTrue(assertThrows(IllegalArgumentException.class, () -> TrainingJobSpec.fromNetwork("{\"task\": \"finance\", \"reward\": \"f1\"}",
                dir.resolve("runs"), data, dir.resolve("models"))).getMessage().startsWith("unknown reward 'f1': use task, "));
        TrainingJobSpec continued = TrainingJobSpec.fromNetwork("{\"task\": \"finance\", \"model\": \"m\", \"adapter\": \"m-lora\"}",
                dir.resolve("runs"), data, dir.resolve("models"));
        assertEquals(dir.resolve("models/m-lora").toAbsolutePath().normalize(), continued.adapter());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TrainingJobSpec.fromNetwork(
                "{\"task\": \"finance\", \"model\": \"m\", \"adapter\": \"../runs/r1/adapter\"}", dir.resolve("runs"), data,
                dir.resolve("models"))).getMessage().startsWith("adapter must name a folder inside the models folder"));
        assertEquals("an adapter continues over the model it was trained on: name that model too", assertThrows(
                IllegalArgumentException.class, () -> TrainingJobSpec.fromNetwork("{\"task\": \"finance\", \"adapter\": \"m-lora\"}",
                        dir.resolve("runs"), data, dir.resolve("models"))).getMessage());
        assertEquals("no task given: name a registered task (task, --task) or a dataset (dataset, --dataset)", assertThrows(IllegalArgumentException.class,
                () -> TrainingJobSpec.fromNetwork("{\"steps\": 1}", dir.resolve("runs"), data, dir.resolve("models"))).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TaskTrainingJob.validate(TrainingJobSpec.fromNetwork(
                "{\"task\": \"finance\", \"reward\": \"exact\", \"judge\": {\"endpoint\": {\"url\": \"http://127.0.0.1:9/v1\"}}}",
                dir.resolve("runs"), data, dir.resolve("models")))).getMessage()
                .equals("reward exact and a judge both name what training optimises: choose one"));
    }

    /** A given test file is the dataset's test split: every dataset example is trained on, the file's examples keep own ids. */
    @Test
    void aGivenTestDatasetIsTheTestSplitOfTheDatasetThatIsTheTask(@TempDir Path dir) throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        Files.copy(SharedData.require("toolcall/toolalpaca_xlam_format.json"), data.resolve("mine.json"));
        Files.copy(SharedData.require("toolcall/toolalpaca_xlam_format.json"), data.resolve("held.json"));
        Path models = Files.createDirectories(dir.resolve("models"));
        TinyChatModel.write(models.resolve("m"), 7);
        TrainingJobSpec spec = TrainingJobSpec.fromNetwork("{\"dataset\": \"mine.json\", \"test_dataset\": \"held.json\", \"model\": \"m\"}",
                dir.resolve("runs"), data, models);
        assertEquals(data.resolve("held.json").toAbsolutePath().normalize(), spec.testDataset());
        TaskTrainingJob.TaskSplit taskSplit = TaskTrainingJob.taskSplit(spec);
        int items = JobDataset.read(data.resolve("mine.json")).examples().size();
        assertEquals(items, taskSplit.split().train().size(), "every example of the dataset is trained on");
        assertEquals(items, taskSplit.split().test().size());
        assertTrue(taskSplit.split().test().stream().allMatch(e -> e.id().startsWith("test_xlam_")));
        assertEquals(2 * items, taskSplit.task().examples().size(), "one task over both, so its reward finds either");

        assertTrue(assertThrows(IllegalArgumentException.class, () -> TrainingJobSpec.fromNetwork(
                "{\"dataset\": \"mine.json\", \"test_dataset\": \"../held.json\"}", dir.resolve("runs"), data, models))
                .getMessage().startsWith("test_dataset must name a file inside the data folder"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TrainingJobSpec.fromNetwork(
                "{\"task\": \"finance\", \"dataset\": \"mine.json\", \"test_dataset\": \"held.json\"}", dir.resolve("runs"), data,
                models)).getMessage().startsWith("a test dataset is the test split of a dataset that is the task"));
        Files.writeString(data.resolve("answers.jsonl"), "{\"id\": \"a1\", \"query\": \"2+2?\", \"gold_answer\": \"4\"}\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TaskTrainingJob.validate(TrainingJobSpec.fromNetwork(
                "{\"dataset\": \"mine.json\", \"test_dataset\": \"answers.jsonl\", \"model\": \"m\"}", dir.resolve("runs"), data, models)))
                .getMessage().endsWith("the two must be of one kind"));
    }
}
