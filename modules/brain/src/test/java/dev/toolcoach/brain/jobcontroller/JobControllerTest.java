package dev.toolcoach.brain.jobcontroller;

import akka.actor.typed.ActorSystem;
import akka.cluster.typed.Cluster;
import akka.management.javadsl.AkkaManagement;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.toolcoach.brain.taskjob.JobRequest;
import dev.toolcoach.brain.taskjob.TinyRecipe;
import dev.toolcoach.cluster.node.NodeConfigLoader;
import dev.toolcoach.cluster.node.NodeLauncher;
import dev.toolcoach.cluster.node.NodeOverrides;
import dev.toolcoach.cluster.node.NodeProgram;
import dev.toolcoach.cluster.node.NodeSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jobs submitted to a coach node over HTTP ({@code POST /jobs}, {@code GET /jobs}) and rolled out by the
 * cluster's athlete and tool nodes; and a coach node that stopped in the middle of a job resumes it when
 * it starts again.
 */
class JobControllerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration JOB_DEADLINE = Duration.ofMinutes(4);

    private final HttpClient http = HttpClient.newHttpClient();
    private final List<ActorSystem<?>> systems = new ArrayList<>();

    @AfterEach
    void stopNodes() {
        systems.forEach(ActorSystem::terminate);
        systems.forEach(s -> s.getWhenTerminated().toCompletableFuture().join());
    }

    @Test
    void aSubmittedJobRunsOnTheClusterAndAnInterruptedOneResumesWhenTheCoachComesBack(@TempDir Path runs) throws Exception {
        ActorSystem<?> coach = start(NodeProgram.COACH, List.of(), runs);
        String seed = Cluster.get(coach).selfMember().address().toString();
        ActorSystem<?> athlete = start(NodeProgram.ATHLETE, List.of(seed), runs);
        start(NodeProgram.TOOL, List.of(seed), runs);
        String jobs = management(coach) + "jobs";

        assertEquals(404, get(jobs).statusCode(), "no job yet");
        HttpResponse<String> unknown = post(jobs, request("stocks", "bad"));
        assertEquals(400, unknown.statusCode());
        assertTrue(JSON.readTree(unknown.body()).get("error").asText().startsWith("no task named 'stocks'"), unknown.body());
        assertEquals(400, post(jobs, "{\"task\": \"finance\", \"steps\": \"many\"}").statusCode());
        HttpResponse<String> noDataset = post(jobs, "{\"task\": \"finance\", \"name\": \"nodata\", \"dataset\": \""
                + runs.resolve("missing.jsonl") + "\"}");
        assertEquals(400, noDataset.statusCode());
        assertTrue(JSON.readTree(noDataset.body()).get("error").asText().startsWith("cannot read the dataset"), noDataset.body());
        assertTrue(Files.notExists(runs.resolve("nodata")), "nothing was written");

        HttpResponse<String> accepted = post(jobs, request("finance", "first"));
        assertEquals(202, accepted.statusCode(), accepted.body());
        assertEquals(409, post(jobs, request("finance", "second")).statusCode(), "one job at a time");
        JsonNode done = awaitEnd(jobs);
        assertEquals("finished", done.get("state").asText(), done.toString());
        assertEquals(List.of("before_training", "after_warmup", "after_grpo"), names(done.get("evaluations")));
        assertEquals(2, done.get("last_step").get("step").asLong());
        assertTrue(Files.isRegularFile(runs.resolve("first/adapter/adapter_model.safetensors")));
        assertEquals("finished", JSON.readTree(runs.resolve("first/job.json").toFile()).get("state").asText());

        // a job the coach node was running when it stopped: its record still says running
        JobRequest interrupted = JSON.readValue(request("finance", "interrupted"), JobRequest.class);
        Files.createDirectories(runs.resolve("interrupted"));
        JSON.writeValue(runs.resolve("interrupted/job.json").toFile(), Map.of("request", interrupted, "state", "running"));
        coach.terminate();
        coach.getWhenTerminated().toCompletableFuture().join();
        ActorSystem<?> restarted = start(NodeProgram.COACH, List.of(Cluster.get(athlete).selfMember().address().toString()), runs);
        JsonNode resumed = awaitEnd(management(restarted) + "jobs");
        assertEquals("interrupted", resumed.get("name").asText());
        assertEquals("finished", resumed.get("state").asText(), resumed.toString());
    }

    private static String request(String task, String name) throws Exception {
        ObjectNode body = JSON.createObjectNode().put("task", task).put("name", name).put("seed", 5).put("athletes", 4)
                .put("checkpoint_every", 1);
        body.set("recipe", JSON.valueToTree(TinyRecipe.get()));
        return body.toString();
    }

    private JsonNode awaitEnd(String jobs) throws Exception {
        long deadline = System.nanoTime() + JOB_DEADLINE.toNanos();
        while (System.nanoTime() < deadline) {
            HttpResponse<String> status = get(jobs);
            if (status.statusCode() == 200) {
                JsonNode node = JSON.readTree(status.body());
                if (!node.get("state").asText().equals("running")) return node;
            }
            Thread.sleep(500); // polling the job's HTTP status with a deadline: there is no event to wait on
        }
        throw new AssertionError("the job did not end within " + JOB_DEADLINE);
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String url, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String management(ActorSystem<?> system) {
        return AkkaManagement.get(system).start().toCompletableFuture().join().toString() + "/";
    }

    private ActorSystem<?> start(NodeProgram program, List<String> seeds, Path runs) {
        NodeOverrides overrides = new NodeOverrides(Optional.empty(), Optional.empty(), Optional.of("127.0.0.1"),
                Optional.of(0), Optional.of(seeds), Optional.of("127.0.0.1"), Optional.of(0),
                Optional.of(4), Optional.of(List.of("finance")));
        Config config = ConfigFactory.parseMap(Map.of("akka.coordinated-shutdown.run-by-jvm-shutdown-hook", "off",
                        "akka.loglevel", "WARNING", "toolcoach.jobs.runs-dir", runs.toString()))
                .withFallback(NodeConfigLoader.load(program, overrides, Map.of()));
        ActorSystem<?> system = NodeLauncher.start(config, NodeSettings.fromConfig(config));
        systems.add(system);
        return system;
    }
}
