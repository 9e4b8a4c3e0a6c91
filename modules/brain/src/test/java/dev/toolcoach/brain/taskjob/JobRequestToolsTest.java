package dev.toolcoach.brain.taskjob;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The tool_retrieval, judge and tool_suite fields of POST /jobs: read, confined to the node's data folder, checked before a run. */
class JobRequestToolsTest {

    @Test
    void retrievalAndJudgeFromTheNetworkStayInsideTheDataFolderAndNameEndpointsByUrl(@TempDir Path dir) throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        Files.createDirectories(data.resolve("bfcl"));
        Files.writeString(data.resolve("bfcl/q.json"), "{}\n");
        JobRequest request = JobRequest.fromNetwork("""
                {"task": "finance", "tool_retrieval": {"mode": "hybrid", "k": 2, "distractor_suites": ["sql"],
                 "distractor_schemas": ["bfcl/q.json"], "model": {"url": "http://127.0.0.1:9/v1", "model": "picker"}},
                 "judge": {"mode": "relative", "endpoint": {"url": "http://127.0.0.1:9/v1", "model": "judge"}}}""", dir.resolve("runs"), data);
        TaskTrainingJob.Options options = request.options("r1");
        assertEquals(data.resolve("bfcl/q.json").toAbsolutePath().normalize().toString(), options.tools().distractorSchemas().get(0));
        assertEquals(2, options.tools().retrieval().orElseThrow().k());
        assertEquals("relative", options.judge().mode());

        assertTrue(assertThrows(IllegalArgumentException.class, () -> JobRequest.fromNetwork("""
                {"task": "finance", "tool_retrieval": {"distractor_schemas": ["../secret.json"]}}""", dir.resolve("runs"), data))
                .getMessage().startsWith("tool_retrieval.distractor_schemas must name a file inside the data folder"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JobRequest.fromNetwork("""
                {"task": "finance", "judge": {"endpoint": {"model": "/models/big"}}}""", dir.resolve("runs"), data))
                .getMessage().contains("judge.endpoint must name a url"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TaskTrainingJob.validate(JobRequest.fromNetwork("""
                {"task": "finance", "tool_retrieval": {"mode": "llm"}}""", dir.resolve("runs"), data).options("r2")))
                .getMessage().contains("asks a model"));
        assertNull(JobRequest.fromNetwork("{\"task\": \"finance\"}", dir.resolve("runs"), data).options("r3").judge());
    }

    @Test
    void aHostedToolSuiteIsReadFromTheRequestAndNeedsACluster(@TempDir Path dir) throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        TaskTrainingJob.Options options = JobRequest.fromNetwork("""
                {"task": "finance", "tool_suite": " finance-mcp ", "steps": 1}""", dir.resolve("runs"), data).options("r1");
        assertEquals("finance-mcp", options.toolSuite());
        assertNull(JobRequest.fromNetwork("{\"task\": \"finance\"}", dir.resolve("runs"), data).options("r2").toolSuite());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JobRequest.fromNetwork("""
                {"task": "finance", "tool_suite": " "}""", dir.resolve("runs"), data).options("r3"))
                .getMessage().contains("tool_suite must name a suite"));
        IllegalArgumentException embedded = assertThrows(IllegalArgumentException.class,
                () -> TaskTrainingJob.run(options, java.util.Optional.empty(), phase -> { }));
        assertTrue(embedded.getMessage().startsWith("tool_suite 'finance-mcp' is a suite the cluster's tool nodes host"),
                embedded.getMessage());
        assertTrue(!Files.exists(dir.resolve("runs/r1/config.json")), "nothing ran");
    }
}
