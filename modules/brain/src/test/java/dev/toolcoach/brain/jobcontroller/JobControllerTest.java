package dev.toolcoach.brain.jobcontroller;

import akka.actor.typed.ActorSystem;
import akka.cluster.typed.Cluster;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.brain.taskjob.TrainingJobSpec;
import dev.toolcoach.brain.taskjob.TinyRecipe;
import dev.toolcoach.cluster.management.ManagementServer;
import dev.toolcoach.cluster.node.NodeProgram;
import dev.toolcoach.testkit.HeadlessChromium;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static dev.toolcoach.testkit.HeadlessChromium.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jobs submitted to a coach node over HTTP ({@code POST /jobs}, {@code GET /jobs}) and rolled out by the
 * cluster's athlete and tool nodes, followed on its {@code /dashboard} in headless Chromium; and a coach node that stopped in the middle of a job resumes it when
 * it starts again.
 */
class JobControllerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration JOB_DEADLINE = Duration.ofMinutes(4);

    private final HttpClient http = HttpClient.newHttpClient();
    private final TestNodes nodes = new TestNodes();

    @AfterEach
    void stopNodes() {
        nodes.close();
    }

    @Test
    void aSubmittedJobRunsOnTheClusterLiveOnTheDashboardAndAnInterruptedOneResumesWhenTheCoachComesBack(@TempDir Path runs) throws Exception {
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
        HttpResponse<String> noDataset = post(jobs, "{\"task\": \"finance\", \"name\": \"nodata\", \"dataset\": \"missing.jsonl\"}");
        assertEquals(400, noDataset.statusCode());
        assertTrue(JSON.readTree(noDataset.body()).get("error").asText().startsWith("cannot read the dataset"), noDataset.body());
        assertTrue(Files.notExists(runs.resolve("nodata")), "nothing was written");

        followOnTheDashboard(management(coach), athlete, "first");
        JsonNode done = awaitEnd(jobs);
        assertEquals("finished", done.get("state").asText(), done.toString());
        assertEquals(List.of("before_training", "after_warmup", "after_grpo"), names(done.get("evaluations")));
        assertEquals(2, done.get("last_step").get("step").asLong());
        assertTrue(Files.isRegularFile(runs.resolve("first/adapter/adapter_model.safetensors")));
        assertEquals("finished", JSON.readTree(runs.resolve("first/job.json").toFile()).get("state").asText());

        // a job the coach node was running when it stopped: its record still says running
        JsonNode interrupted = JSON.readTree(request("finance", "interrupted")); // a body as job.json kept it
        Files.createDirectories(runs.resolve("interrupted"));
        JSON.writeValue(runs.resolve("interrupted/job.json").toFile(), Map.of("request", interrupted, "state", "running"));
        coach.terminate();
        coach.getWhenTerminated().toCompletableFuture().join();
        ActorSystem<?> restarted = start(NodeProgram.COACH, List.of(Cluster.get(athlete).selfMember().address().toString()), runs);
        JsonNode resumed = awaitEnd(management(restarted) + "jobs");
        assertEquals("interrupted", resumed.get("name").asText());
        assertEquals("finished", resumed.get("state").asText(), resumed.toString());
    }

    @Test
    void onlyATokenHolderStartsJobsAndOnlyInsideTheNodesFolders(@TempDir Path dir) throws Exception {
        Path runs = dir.resolve("runs");
        Path data = Files.createDirectories(dir.resolve("data"));
        Files.writeString(data.resolve("secret.jsonl"), "SECRET-1 root:x:0:0\n{\"id\": \"SECRET-2\"}\n{\"SECRET-3\": 1}\n");
        Files.createDirectories(dir.resolve("elsewhere/init"));
        ActorSystem<?> coach = start(NodeProgram.COACH, List.of(), runs, Map.of("toolcoach.management.token", "s3cret",
                "akka.management.http.route-providers-read-only", "off", "toolcoach.jobs.data-dir", data.toString(),
                "toolcoach.jobs.max-request-body", "64k"));
        String jobs = management(coach) + "jobs";
        String ok = request("finance", "guarded");

        HttpResponse<String> none = post(jobs, ok, null);
        assertEquals(401, none.statusCode(), none.body());
        assertEquals("no token given (Authorization: Bearer <toolcoach.management.token>)", error(none));
        assertEquals(401, post(jobs, ok, "Bearer s3creT").statusCode());

        Map<String, String> outside = Map.of(
                "{\"task\": \"finance\", \"name\": \"x\", \"runs_dir\": \"" + dir.resolve("elsewhere") + "\"}",
                "runs_dir cannot be set in a request: the node's toolcoach.jobs.runs-dir holds every run",
                "{\"task\": \"finance\", \"name\": \"x\", \"data_dir\": \"/\"}",
                "data_dir cannot be set in a request: the node reads data from its toolcoach.jobs.data-dir only",
                "{\"task\": \"finance\", \"name\": \"x\", \"dataset\": \"/etc/passwd\"}",
                "dataset must be a path relative to the data folder, not an absolute path",
                "{\"task\": \"finance\", \"name\": \"x\", \"dataset\": \"../data/../../etc/passwd\"}",
                "dataset must name a file inside the data folder (no .. or links out of it)",
                "{\"task\": \"finance\", \"name\": \"../elsewhere\"}",
                "run name must be a plain folder name (letters, digits, . _ -; at most 100)");
        for (Map.Entry<String, String> e : outside.entrySet()) {
            HttpResponse<String> refused = post(jobs, e.getKey(), "Bearer s3cret");
            assertEquals(400, refused.statusCode(), e.getKey());
            assertEquals(e.getValue(), error(refused));
        }

        HttpResponse<String> secret = post(jobs, "{\"task\": \"finance\", \"name\": \"leak\", \"dataset\": \"secret.jsonl\"}",
                "Bearer s3cret");
        assertEquals(400, secret.statusCode());
        assertFalse(secret.body().contains("SECRET") || secret.body().contains("root"), secret.body());
        assertTrue(error(secret).startsWith("the dataset <data>/secret.jsonl has no usable example") && !error(secret).contains(dir.toString()),
                "the node's folders are named by role, not by path: " + secret.body());
        assertTrue(error(secret).endsWith("has no usable example (3 bad records: line 1 (not valid JSON at column 7), "
                + "line 2 (no \"messages\" (or \"query\")), line 3 (no \"id\"))"), secret.body());

        String deep = "{\"task\": \"finance\", \"recipe\": " + "[".repeat(10_000) + "]".repeat(10_000) + "}";
        HttpResponse<String> tooDeep = post(jobs, deep, "Bearer s3cret");
        assertEquals(400, tooDeep.statusCode());
        assertEquals("the body is not a job request: JSON is nested deeper than 64 levels", error(tooDeep));
        HttpResponse<String> tooBig = post(jobs, "{\"task\": \"" + "f".repeat(100_000) + "\"}", "Bearer s3cret");
        assertEquals(413, tooBig.statusCode());

        assertTrue(Files.notExists(runs), "no run folder was made");
        try (var left = Files.list(dir.resolve("elsewhere"))) {
            assertEquals(List.of(dir.resolve("elsewhere/init")), left.toList());
        }
    }

    @Test
    void aReadOnlyManagementTakesNoJobs(@TempDir Path runs) throws Exception {
        ActorSystem<?> coach = start(NodeProgram.COACH, List.of(), runs, Map.of("toolcoach.management.token", "s3cret"));
        HttpResponse<String> refused = post(management(coach) + "jobs", request("finance", "ro"), "Bearer s3cret");
        assertEquals(403, refused.statusCode());
        assertTrue(error(refused).startsWith("this node's management routes are read-only"), refused.body());
        assertEquals(200, get(management(coach) + "dashboard/data").statusCode(), "the dashboard is read-only: it stays");
    }

    /**
     * The dashboard in headless Chromium while the job {@code name} runs and once it has finished: the page, its data,
     * its charts; submits the job itself once the page shows the cluster.
     */
    private void followOnTheDashboard(String base, ActorSystem<?> athlete, String name) throws Exception {
        HttpResponse<String> page = get(base + "dashboard");
        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("Content-Security-Policy").orElse("").startsWith("default-src 'none'; script-src 'self'"));
        assertFalse(page.body().contains("http://") || page.body().contains("https://"), "every asset comes from this node");
        assertEquals(200, get(base + "dashboard/uPlot.iife.min.js").statusCode());
        assertEquals(404, get(base + "dashboard/missing.js").statusCode());
        assertTrue(JSON.readTree(get(base + "dashboard/data").body()).get("job").isNull(), "no job yet");

        try (HeadlessChromium chromium = new HeadlessChromium()) {
            var d = chromium.driver;
            d.get(base + "dashboard");
            await(() -> d.findElements(By.cssSelector("#nodes tbody tr")).size() == 3, "the three cluster members");
            HttpResponse<String> accepted = post(base + "jobs", request("finance", name));
            assertEquals(202, accepted.statusCode(), accepted.body());
            assertEquals(409, post(base + "jobs", request("finance", "second")).statusCode(), "one job at a time");
            await(() -> d.findElement(By.id("job-state")).getText().equals("running"), "the job to show as running");
            assertTrue(d.findElement(By.id("job-name")).getText().contains("job " + name + " · task finance"));
            String athleteAddress = Cluster.get(athlete).selfMember().address().toString();
            await(() -> d.findElements(By.cssSelector("#nodes tbody tr")).stream().map(WebElement::getText)
                    .anyMatch(row -> row.startsWith(athleteAddress) && row.endsWith(" 4")), "the athlete node's 4 athletes");
            await(() -> !d.findElement(By.id("job-state")).getText().equals("running"), "the job to end", JOB_DEADLINE);
            await(() -> d.findElement(By.id("tile-step")).getText().equals("2 / 2"), "the last step");
            JsonNode data = JSON.readTree(get(base + "dashboard/data").body());
            assertEquals(2, data.get("steps").size());
            assertEquals("done", data.get("job").get("phase").asText());
            assertEquals("phase: done", d.findElement(By.id("job-phase")).getText());
            assertEquals(data.get("coach").get("rolloutsRedispatched").asText(), d.findElement(By.id("tile-redispatched")).getText());
            assertEquals(data.get("coach").get("groupsOpen").asText(), d.findElement(By.id("tile-groups-open")).getText());
            assertEquals(String.format(Locale.ROOT, "%.3f", data.get("steps").get(1).get("mean_reward").asDouble()),
                    d.findElement(By.id("tile-reward")).getText());
            assertEquals(data.get("max_policy_lag").asText(), d.findElement(By.id("tile-lag")).getText());
            List<String> tools = names(data.get("tools"));
            assertEquals(tools.isEmpty() ? List.of("no tool call in a trained trace yet") : tools,
                    d.findElements(By.cssSelector("#tools tbody tr td:first-child")).stream().map(WebElement::getText).toList());
            assertEquals(List.of("before_training", "after_warmup", "after_grpo"),
                    d.findElements(By.cssSelector("#evaluations tbody tr td:first-child")).stream().map(WebElement::getText).toList());
            // one chart per figure, each over the two steps
            assertEquals(3, d.findElements(By.cssSelector("#charts canvas")).size());
            assertTrue(d.findElement(By.id("chart-reward")).getText().contains("mean reward"));
            chromium.screenshot(Path.of("target/screenshots/dashboard.png"));
            assertEquals(List.of(), chromium.consoleErrors(), "the browser console has errors");
        }
    }

    @Test
    void skillsAreListedToAnyoneAndApprovedOnlyWithTheJobToken(@TempDir Path dir) throws Exception {
        Path skills = dir.resolve("skills");
        Path folder = Files.createDirectories(skills.resolve("loan_payment_then_npv"));
        Files.writeString(folder.resolve("skill.json"), """
                {"name": "loan_payment_then_npv", "description": "d", "suite": "finance", "status": "pending",
                 "parameters": {"type": "object", "properties": {"principal": {"type": "number"}, "annual_rate": {"type": "number"},
                   "years": {"type": "number"}, "rate": {"type": "number"}}},
                 "steps": [{"tool": "loan_payment", "arguments": {"principal": {"param": "principal"},
                     "annual_rate": {"param": "annual_rate"}, "years": {"param": "years"}}},
                   {"tool": "npv", "arguments": {"rate": {"param": "rate"}}}],
                 "provenance": {"source": "s", "trajectories": ["t1"], "support": 1, "novelty": 1.0, "min_length": 2,
                   "min_support": 1, "validated": 1, "created_at": "2026-11-24T00:00:00Z"}}
                """);
        ActorSystem<?> coach = start(NodeProgram.COACH, List.of(), dir.resolve("runs"), Map.of("toolcoach.management.token", "s3cret",
                "akka.management.http.route-providers-read-only", "off", "toolcoach.tools.skills.dir", skills.toString()));
        String base = management(coach) + "skills";
        HttpResponse<String> listed = get(base);
        assertEquals(200, listed.statusCode(), listed.body());
        assertEquals("pending", JSON.readTree(listed.body()).get(0).get("status").asText());

        assertEquals(401, post(base + "/loan_payment_then_npv/approve", "").statusCode());
        HttpResponse<String> unknown = post(base + "/nothing/approve", "", "Bearer s3cret");
        assertEquals(404, unknown.statusCode());
        assertTrue(error(unknown).startsWith("no skill named 'nothing'"), unknown.body());
        HttpResponse<String> approved = post(base + "/loan_payment_then_npv/approve", "", "Bearer s3cret");
        assertEquals(200, approved.statusCode(), approved.body());
        assertEquals("approved", JSON.readTree(approved.body()).get("status").asText());
        assertEquals("approved", JSON.readTree(get(base).body()).get(0).get("status").asText());

        Files.writeString(folder.resolve("skill.json"), "{\"name\": 3}");
        HttpResponse<String> broken = get(base);
        assertEquals(400, broken.statusCode());
        assertEquals(folder.resolve("skill.json") + ": field name: must be a string", error(broken));
    }

    private static String error(HttpResponse<String> reply) throws Exception {
        return JSON.readTree(reply.body()).get("error").asText();
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
        return post(url, body, null);
    }

    private HttpResponse<String> post(String url, String body, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) request.header("Authorization", authorization);
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String management(ActorSystem<?> system) {
        return ManagementServer.get(system).url().toString() + "/";
    }

    private ActorSystem<?> start(NodeProgram program, List<String> seeds, Path runs) {
        return start(program, seeds, runs, Map.of("akka.management.http.route-providers-read-only", "off",
                "toolcoach.jobs.data-dir", runs.resolve("data").toString()));
    }

    private ActorSystem<?> start(NodeProgram program, List<String> seeds, Path runs, Map<String, String> settings) {
        return nodes.start(program, seeds, runs, settings);
    }
}
