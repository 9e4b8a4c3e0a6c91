package dev.toolcoach.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * deploy/local/cluster.sh against the real shaded node jars: up with 2 athletes and 1 tool node,
 * status, scale to 3 athletes, down — and no process left behind; and the chaos run (deploy/local/chaos.sh) of a
 * training job on such a cluster.
 */
class LocalClusterScriptIT {

    private static final Pattern MEMBER = Pattern.compile("^\\s+akka://ToolCoach@127\\.0\\.0\\.1:\\d+\\s+(\\S+)\\s+(\\S+)$");

    private final Path deploy = DeployFiles.deployDir();
    private final Path runDir = deploy.resolve("target/it-run");
    private final Path runs = deploy.resolve("target/it-runs");

    private record Result(int exitCode, String output) {
    }

    private Result script(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", deploy.resolve("local/cluster.sh").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("TOOLCOACH_RUN_DIR", runDir.toString());
        builder.environment().put("TOOLCOACH_RUNS_DIR", runs.toString());
        // away from the default ports, so a cluster the developer runs is not in the way
        builder.environment().put("TOOLCOACH_BASE_PORT", "27520");
        builder.environment().put("TOOLCOACH_BASE_MANAGEMENT_PORT", "9558");
        Process process = builder.start();
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroy();
            throw new AssertionError("cluster.sh " + String.join(" ", args) + " did not finish in 5 minutes");
        }
        return new Result(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    /** Member count by "status roles" from the status output. */
    private static Map<String, Integer> members(String statusOutput) {
        Map<String, Integer> counts = new TreeMap<>();
        for (String line : statusOutput.split("\n")) {
            Matcher m = MEMBER.matcher(line);
            if (m.matches()) counts.merge(m.group(1) + " " + m.group(2), 1, Integer::sum);
        }
        return counts;
    }

    private List<Long> recordedPids() throws IOException {
        try (Stream<Path> files = Files.list(runDir)) {
            return files.filter(f -> f.toString().endsWith(".pid")).map(f -> {
                try {
                    return Long.parseLong(Files.readString(f).strip());
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            }).toList();
        }
    }

    @Test
    void everyShadedJarPrintsItsHelp() throws IOException, InterruptedException {
        Path repo = deploy.getParent();
        for (String node : List.of("coach-node", "athlete-node", "tool-node")) {
            Path jar = repo.resolve(node).resolve("target").resolve(node + ".jar");
            Process process = new ProcessBuilder("java", "-jar", jar.toString(), "--help").redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(1, TimeUnit.MINUTES), node + " --help did not finish");
            assertEquals(0, process.exitValue(), output);
            assertTrue(output.startsWith("Usage: " + node), output);
        }
    }

    @Test
    void upStatusScaleDownLeavesNoProcessBehind() throws Exception {
        deleteRecursively(runDir);
        deleteRecursively(runs);
        List<Long> pids = new ArrayList<>();
        try {
            Result up = script("up", "--athletes", "2", "--tools", "1", "--heap", "600m");
            assertEquals(0, up.exitCode(), up.output());
            assertTrue(up.output().contains("Heaps (MiB): coach 600 athlete 600 tool 600"), up.output());
            assertEquals(4, up.output().lines().filter(l -> l.contains(" ready ") && l.contains("http://127.0.0.1:")).count(),
                    up.output());

            Result status = script("status");
            assertEquals(0, status.exitCode(), status.output());
            assertEquals(Map.of("Up athlete", 2, "Up coach,learner", 1, "Up tool", 1), members(status.output()), status.output());

            Result scale = script("scale", "--athletes", "3");
            assertEquals(0, scale.exitCode(), scale.output());
            pids.addAll(recordedPids());
            assertEquals(5, pids.size());
            for (long pid : pids) { // the node added by scale too: the plan stays in the run folder
                String cmdline = Files.readString(Path.of("/proc/" + pid + "/cmdline")).replace('\0', ' ');
                assertTrue(cmdline.contains(" -Xmx600m "), cmdline);
            }
            Result scaled = script("status");
            assertEquals(Map.of("Up athlete", 3, "Up coach,learner", 1, "Up tool", 1), members(scaled.output()), scaled.output());

            // Prometheus's targets (deploy/monitoring/prometheus.yml): each node's management port, whose /metrics
            // has what the alert rules read
            JsonNode targets = new ObjectMapper().readTree(runDir.resolve("prometheus-targets.json").toFile());
            List<String> nodes = new ArrayList<>();
            for (JsonNode target : targets) {
                nodes.add(target.get("labels").get("node_role").asText() + " " + target.get("labels").get("node").asText());
                String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://" + target.get("targets").get(0).asText() + "/metrics")).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
                assertTrue(metrics.contains("toolcoach_memory_limit_bytes ") && metrics.contains("process_resident_memory_bytes ")
                        && metrics.contains("toolcoach_cluster_members{role=\"athlete\",status=\"Up\"} 3"), metrics);
            }
            assertEquals(List.of("athlete athlete-1", "athlete athlete-2", "athlete athlete-3", "coach coach", "tool tool-1"),
                    nodes.stream().sorted().toList());
            aRealPrometheusSeesAPausedNodeAndAStarvedLearner();
        } finally {
            Result down = script("down");
            assertEquals(0, down.exitCode(), down.output());
        }
        assertEquals("[]", new ObjectMapper().readTree(runDir.resolve("prometheus-targets.json").toFile()).toString(),
                "no target left once the cluster is down");
        for (long pid : pids) {
            assertTrue(ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true), "process " + pid + " still running");
        }
        assertEquals(List.of(), recordedPids(), "no PID file left");
        String logs;
        try (Stream<Path> files = Files.list(runDir)) {
            logs = files.filter(f -> f.toString().endsWith(".log")).map(LocalClusterScriptIT::read).collect(Collectors.joining());
        }
        assertTrue(logs.contains("Exiting completed"), "nodes left the cluster gracefully");
        assertTrue(!logs.contains("\tat "), "no stack trace in the node logs");
    }

    /**
     * Debian's Prometheus, discovering the nodes from the targets file cluster.sh writes, scrapes them each second and
     * evaluates deploy/monitoring/alerts.yml's node-down and learner-stall alerts with their windows cut to seconds
     * (their production figures are promtool's unit tests'): SIGSTOP of athlete-2 fires node-down for that node alone,
     * SIGCONT resolves it; a job whose athletes are all stopped starves its learner, whose node still answers every
     * scrape: the stall alert fires for the coach, and resolves once they continue and the learner steps again.
     */
    private void aRealPrometheusSeesAPausedNodeAndAStarvedLearner() throws Exception {
        Path dir = Files.createDirectories(deploy.resolve("target/it-prometheus"));
        deleteRecursively(dir.resolve("data"));
        Map<String, String> shipped = new TreeMap<>();
        for (JsonNode rule : new ObjectMapper(new YAMLFactory()).readTree(deploy.resolve("monitoring/alerts.yml").toFile())
                .get("groups").get(0).get("rules")) {
            shipped.put(rule.get("alert").asText(), rule.get("expr").asText().strip());
        }
        String stalled = shipped.get("ToolCoachLearnerStalled");
        assertTrue(stalled.contains("[15m]"), stalled);
        Files.writeString(dir.resolve("alerts.yml"), "groups:\n  - name: live\n    rules:\n"
                + "      - alert: ToolCoachNodeDown\n        expr: '" + shipped.get("ToolCoachNodeDown") + "'\n        for: 3s\n"
                + "      - alert: ToolCoachLearnerStalled\n        expr: '" + stalled.replace("[15m]", "[5s]") + "'\n        for: 1s\n");
        Files.writeString(dir.resolve("prometheus.yml"), "global: {scrape_interval: 1s, evaluation_interval: 1s, scrape_timeout: 900ms}\n"
                + "rule_files: [alerts.yml]\nscrape_configs:\n  - job_name: toolcoach-local\n    file_sd_configs:\n"
                + "      - files: ['" + runDir.resolve("prometheus-targets.json") + "']\n        refresh_interval: 1s\n");
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        Process prometheus = new ProcessBuilder("prometheus", "--config.file=" + dir.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        try {
            assertEquals(List.of(), awaitAlerts(port, alerts -> alerts.isEmpty() && upTargets(port) == 5), "all five nodes scraped, none down");
            assertEquals(0, script("signal", "athlete-2", "STOP").exitCode());
            assertEquals(List.of("ToolCoachNodeDown athlete-2 firing"),
                    awaitAlerts(port, alerts -> alerts.contains("ToolCoachNodeDown athlete-2 firing")));
            assertEquals(0, script("signal", "athlete-2", "CONT").exitCode());
            assertEquals(List.of(), awaitAlerts(port, List::isEmpty), "resolved once the node answers again");

            Path recipe = dir.resolve("recipe.json");
            Files.writeString(recipe, """
                    {"shape": {"dim": 32, "hiddenDim": 64, "layers": 2, "heads": 2, "kvHeads": 2, "maxSeqLen": 768},
                     "maxMerges": 64, "minMergeCount": 8, "vocabularyExamples": 64, "warmupTraces": 8, "warmupEpochs": 2,
                     "groupSize": 4, "groupsPerStep": 2, "grpoSteps": 5000, "oversampling": 1, "maxTurns": 3,
                     "maxTotalTokens": 768, "maxNewTokens": 96, "engineBatch": 8, "testExamples": 10, "passAtKQueries": 0,
                     "heldOutEvery": 0}""");
            Result train = script("train", "--detach", "--task", "finance", "--name", "stall", "--recipe", recipe.toString(), "--seed", "5");
            assertEquals(0, train.exitCode(), train.output());
            try {
                assertTrue(awaitQuery(port, "toolcoach_learner_steps_total", steps -> steps >= 3), "the job trains");
                assertEquals(List.of(), awaitAlerts(port, List::isEmpty), "steps come faster than the stall window");
                for (String athlete : List.of("athlete-1", "athlete-2", "athlete-3")) {
                    assertEquals(0, script("signal", athlete, "STOP").exitCode());
                }
                // continued before the split-brain resolver would down them (about 14 s after the stop)
                List<String> starved = awaitAlerts(port, alerts -> alerts.contains("ToolCoachLearnerStalled coach firing"));
                for (String athlete : List.of("athlete-1", "athlete-2", "athlete-3")) {
                    assertEquals(0, script("signal", athlete, "CONT").exitCode());
                }
                assertTrue(starved.contains("ToolCoachLearnerStalled coach firing"), starved.toString());
                assertEquals(List.of(), awaitAlerts(port, List::isEmpty), "resolved once the learner steps again");
            } finally {
                cancel("stall");
            }
        } finally {
            prometheus.destroy();
            prometheus.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** Cancels the job and waits until it has ended, so no later coach on this runs folder resumes it. */
    private void cancel(String job) throws Exception {
        String jobs = "http://127.0.0.1:" + Files.readString(runDir.resolve("coach.ports")).strip().split(" ")[1] + "/jobs";
        HttpClient http = HttpClient.newHttpClient();
        http.send(HttpRequest.newBuilder(URI.create(jobs + "/" + job + "/cancel")).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        String state = "running";
        while (state.equals("running") && System.nanoTime() < deadline) {
            Thread.sleep(250); // polling with a deadline: the job ends at its next step
            JsonNode status = new ObjectMapper().readTree(http.send(HttpRequest.newBuilder(URI.create(jobs)).build(),
                    HttpResponse.BodyHandlers.ofString()).body()); // the current or last job
            if (status.path("name").asText().equals(job)) state = status.path("state").asText();
        }
        assertEquals("cancelled", state);
    }

    /** Polls a Prometheus query until its first value satisfies {@code done} or 4 minutes pass. */
    private static boolean awaitQuery(int port, String query, java.util.function.DoublePredicate done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);
        while (System.nanoTime() < deadline) {
            JsonNode result = prometheusApi(port, "query?query=" + query).path("data").path("result");
            if (result.size() > 0 && done.test(result.get(0).path("value").get(1).asDouble())) return true;
            Thread.sleep(500); // polling with a deadline: the job builds its model and warms up first
        }
        return false;
    }

    /** Polls Prometheus's alerts ("node state") until {@code done} holds or 60 s pass; the last seen. */
    private static List<String> awaitAlerts(int port, Predicate<List<String>> done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        List<String> alerts = List.of("(none read)");
        while (System.nanoTime() < deadline) {
            try {
                List<String> seen = new ArrayList<>();
                for (JsonNode alert : prometheusApi(port, "alerts").get("data").get("alerts")) {
                    JsonNode labels = alert.get("labels");
                    seen.add(labels.get("alertname").asText() + " " + labels.get("node").asText() + " " + alert.get("state").asText());
                }
                alerts = seen;
                if (done.test(alerts)) return alerts;
            } catch (IOException notYetUp) {
                // Prometheus is still starting
            }
            Thread.sleep(250); // polling with a deadline: the scrapes and evaluations run on Prometheus's clock
        }
        return alerts;
    }

    private static int upTargets(int port) {
        try {
            int up = 0;
            for (JsonNode target : prometheusApi(port, "targets").get("data").get("activeTargets")) {
                if (target.get("health").asText().equals("up")) up++;
            }
            return up;
        } catch (IOException | InterruptedException e) {
            return 0;
        }
    }

    private static JsonNode prometheusApi(int port, String path) throws IOException, InterruptedException {
        return new ObjectMapper().readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/api/v1/" + path)).build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    /**
     * deploy/local/chaos.sh --short: a training job that loses an athlete JVM to SIGKILL, its tool node to a restart,
     * an athlete to SIGSTOP past the split-brain resolver and its coach to SIGKILL, then passes the script's audit
     * (steps once each, resume from the newest checkpoint at its adapter version, no rollout twice, checkpoints
     * verify, no process left).
     */
    @Test
    void aTrainingJobPassesTheChaosRunsAudit() throws Exception {
        Path log = deploy.resolve("target/it-chaos.log");
        ProcessBuilder builder = new ProcessBuilder("bash", deploy.resolve("local/chaos.sh").toString(), "--short")
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("TOOLCOACH_CHAOS_DIR", deploy.resolve("target/it-chaos").toString());
        builder.environment().put("TOOLCOACH_BASE_PORT", "27520");
        builder.environment().put("TOOLCOACH_BASE_MANAGEMENT_PORT", "9558");
        Process process = builder.start();
        if (!process.waitFor(20, TimeUnit.MINUTES)) {
            process.destroy(); // chaos.sh stops its cluster on SIGTERM
            process.waitFor(3, TimeUnit.MINUTES);
            throw new AssertionError("chaos.sh did not finish in 20 minutes:\n" + read(log));
        }
        String output = read(log);
        assertEquals(0, process.exitValue(), output);
        assertTrue(output.contains("4 faults injected") && output.contains("chaos run passed"), output);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}
