package dev.toolcoach.deploy;

import org.junit.jupiter.api.Test;

import java.io.IOException;
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
 * status, scale to 3 athletes, down — and no process left behind; and a training job on such a cluster
 * that loses an athlete JVM to kill -9 and gains one mid-run.
 */
class LocalClusterScriptIT {

    private static final Pattern MEMBER = Pattern.compile("^\\s+akka://ToolCoach@127\\.0\\.0\\.1:\\d+\\s+(\\S+)\\s+(\\S+)$");

    private final Path deploy = DeployFiles.deployDir();
    private final Path runDir = deploy.resolve("target/it-run");

    private record Result(int exitCode, String output) {
    }

    private Result script(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", deploy.resolve("local/cluster.sh").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("TOOLCOACH_RUN_DIR", runDir.toString());
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
    void upStatusScaleDownLeavesNoProcessBehind() throws IOException, InterruptedException {
        deleteRecursively(runDir);
        List<Long> pids = new ArrayList<>();
        try {
            Result up = script("up", "--athletes", "2", "--tools", "1");
            assertEquals(0, up.exitCode(), up.output());
            assertEquals(4, up.output().lines().filter(l -> l.contains(" ready ") && l.contains("http://127.0.0.1:")).count(),
                    up.output());

            Result status = script("status");
            assertEquals(0, status.exitCode(), status.output());
            assertEquals(Map.of("Up athlete", 2, "Up coach,learner", 1, "Up tool", 1), members(status.output()), status.output());

            Result scale = script("scale", "--athletes", "3");
            assertEquals(0, scale.exitCode(), scale.output());
            pids.addAll(recordedPids());
            assertEquals(5, pids.size());
            Result scaled = script("status");
            assertEquals(Map.of("Up athlete", 3, "Up coach,learner", 1, "Up tool", 1), members(scaled.output()), scaled.output());
        } finally {
            Result down = script("down");
            assertEquals(0, down.exitCode(), down.output());
        }
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
     * A recipe small enough for a test (the job's plumbing is under test here, not its learning), with steps enough
     * (about a minute of rollouts) for an athlete JVM to be killed and another to join while the job runs.
     */
    private static final String TINY_RECIPE = """
            {"shape": {"dim": 32, "hiddenDim": 64, "layers": 2, "heads": 2, "kvHeads": 2, "maxSeqLen": 768},
             "maxMerges": 64, "minMergeCount": 8, "warmupTraces": 8, "warmupEpochs": 2, "warmupBatch": 4, "warmupLr": 0.003,
             "groupSize": 4, "groupsPerStep": 2, "grpoSteps": 100, "temperature": 1.0, "grpoLr": 0.002, "callWeight": 0.5,
             "lora": {"r": 4, "alpha": 8.0, "dropout": 0.0, "targets": ["q_proj", "v_proj"]},
             "maxTurns": 3, "maxTotalTokens": 768, "maxNewTokens": 96, "engineBatch": 8}
            """;

    @Test
    void aTrainingJobFinishesDespiteAKilledAthleteAndTakesInANewOne() throws Exception {
        deleteRecursively(runDir);
        Path runs = deploy.resolve("target/it-runs");
        deleteRecursively(runs);
        Files.createDirectories(runDir);
        Path recipe = Files.writeString(runDir.resolve("tiny-recipe.json"), TINY_RECIPE);
        HttpClient http = HttpClient.newHttpClient();
        try {
            Result up = script("up", "--athletes", "2", "--tools", "1");
            assertEquals(0, up.exitCode(), up.output());
            String jobs = "http://127.0.0.1:" + Files.readString(runDir.resolve("coach.ports")).strip().split(" ")[1] + "/jobs";

            Result submitted = script("train", "--detach", "--task", "finance", "--name", "it-job", "--recipe", recipe.toString(),
                    "--runs-dir", runs.toString(), "--seed", "3", "--checkpoint-every", "1");
            assertEquals(0, submitted.exitCode(), submitted.output());
            awaitJob(http, jobs, status -> status.contains("\"last_step\":{"), "the first training step");

            long victim = Long.parseLong(Files.readString(runDir.resolve("athlete-1.pid")).strip());
            ProcessHandle.of(victim).orElseThrow().destroyForcibly(); // kill -9
            Result scale = script("scale", "--athletes", "3");
            assertEquals(0, scale.exitCode(), scale.output());

            String done = awaitJob(http, jobs, status -> !status.contains("\"state\":\"running\""), "the end of the job");
            assertTrue(done.contains("\"state\":\"finished\""), done);
            List<String> rollouts = Files.readAllLines(runs.resolve("it-job/traces.jsonl")).stream()
                    .map(line -> line.replaceAll("^.*?\"rollout_id\":\"([^\"]+)\".*$", "$1")).toList();
            assertEquals(rollouts.size(), rollouts.stream().distinct().count(), "no rollout was trained on twice");
            assertEquals(100, Files.readAllLines(runs.resolve("it-job/metrics.jsonl")).size(), "every learner step");
            assertTrue(read(runDir.resolve("athlete-3.log")).contains("athletes working"), "the new athlete node joined the job");
        } finally {
            Result down = script("down");
            assertEquals(0, down.exitCode(), down.output());
        }
    }

    private static String awaitJob(HttpClient http, String url, Predicate<String> condition, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (System.nanoTime() < deadline) {
            HttpResponse<String> status = http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
            if (status.statusCode() == 200 && condition.test(status.body())) return status.body();
            Thread.sleep(1000); // polling the coach's job status with a deadline: there is no event to wait on
        }
        throw new AssertionError("no sign of " + what + " at " + url + " within 5 minutes");
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
