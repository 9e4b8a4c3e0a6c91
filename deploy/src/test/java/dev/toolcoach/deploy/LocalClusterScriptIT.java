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
import java.util.stream.LongStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * deploy/local/cluster.sh against the real shaded node jars: up with 2 athletes and 1 tool node,
 * status, scale to 3 athletes, down — and no process left behind; and a training job on such a cluster
 * that loses an athlete JVM to kill -9 and gains one mid-run, then loses the coach JVM to kill -9 and resumes
 * from its last checkpoint when the cluster is brought up again.
 */
class LocalClusterScriptIT {

    private static final Pattern LAST_STEP = Pattern.compile("\"last_step\":\\{[^{}]*\"step\":(\\d+)");
    private static final Pattern STEP = Pattern.compile("\"step\":(\\d+)");
    private static final Pattern VERSION = Pattern.compile("\"version\":(\\d+)");
    private static final Pattern RESUMED = Pattern.compile(
            "resuming from the checkpoint after job step (\\d+) \\(learner step (\\d+), adapter version (\\d+)\\)");
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
    void aTrainingJobFinishesDespiteAKilledAthleteAndAKilledCoach() throws Exception {
        deleteRecursively(runDir);
        deleteRecursively(runs);
        Files.createDirectories(runDir);
        Path recipe = Files.writeString(runDir.resolve("tiny-recipe.json"), TINY_RECIPE);
        Path job = runs.resolve("it-job");
        HttpClient http = HttpClient.newHttpClient();
        try {
            Result up = script("up", "--athletes", "2", "--tools", "1");
            assertEquals(0, up.exitCode(), up.output());
            Result submitted = script("train", "--detach", "--task", "finance", "--name", "it-job", "--recipe", recipe.toString(),
                    "--seed", "3", "--checkpoint-every", "1");
            assertEquals(0, submitted.exitCode(), submitted.output());
            awaitJob(http, jobsUrl(), status -> status.contains("\"last_step\":{"), "the first training step");

            long victim = Long.parseLong(Files.readString(runDir.resolve("athlete-1.pid")).strip());
            ProcessHandle.of(victim).orElseThrow().destroyForcibly(); // kill -9
            Result scale = script("scale", "--athletes", "3");
            assertEquals(0, scale.exitCode(), scale.output());
            long seen = lastStep(awaitJob(http, jobsUrl(), status -> lastStep(status) >= 10, "step 10"));

            // kill -9 the coach: its athlete and tool nodes are downed by the split-brain resolver (or stopped by up)
            ProcessHandle coach = ProcessHandle.of(Long.parseLong(Files.readString(runDir.resolve("coach.pid")).strip())).orElseThrow();
            coach.destroyForcibly();
            coach.onExit().get(1, TimeUnit.MINUTES);
            long newest = newestCheckpoint(job.resolve("checkpoints"));
            Result again = script("up", "--athletes", "2", "--tools", "1");
            assertEquals(0, again.exitCode(), again.output());
            awaitJob(http, jobsUrl(), status -> status.contains("\"phase\":\"train\"") && status.contains("\"last_step\":{"),
                    "a step of the resumed job");
            Matcher resumed = RESUMED.matcher(read(runDir.resolve("coach.log")));
            assertTrue(resumed.find(), "the coach resumed the job from a checkpoint");
            long resumedStep = Long.parseLong(resumed.group(1));
            assertTrue(resumedStep >= seen - 1, "a step waits for the previous step's checkpoint: seen step " + seen
                    + " before the kill, resumed after step " + resumedStep);
            assertEquals(newest, Long.parseLong(resumed.group(2)), "resumed from the newest checkpoint");
            String before = Files.readAllLines(job.resolve("metrics.jsonl")).stream()
                    .filter(l -> first(STEP, l) == resumedStep).findFirst().orElseThrow();
            assertEquals(Long.parseLong(resumed.group(3)), first(VERSION, before),
                    "the adapter version the job had at the checkpoint's step, " + before);

            String done = awaitJob(http, jobsUrl(), status -> !status.contains("\"state\":\"running\""), "the end of the job");
            assertTrue(done.contains("\"state\":\"finished\""), done);
            assertEquals(LongStream.rangeClosed(1, 100).boxed().toList(), Files.readAllLines(job.resolve("metrics.jsonl")).stream()
                    .map(l -> first(STEP, l)).toList(),
                    "every learner step once, a step redone after the resume replacing its first record");
            List<String> rollouts = Files.readAllLines(job.resolve("traces.jsonl")).stream()
                    .map(line -> line.replaceAll("^.*?\"rollout_id\":\"([^\"]+)\".*$", "$1")).toList();
            assertEquals(rollouts.size(), rollouts.stream().distinct().count(), "no rollout was trained on twice");
            assertTrue(read(runDir.resolve("athlete-2.log")).contains("athletes working"), "the athlete nodes joined the resumed job");
        } finally {
            Result down = script("down");
            assertEquals(0, down.exitCode(), down.output());
        }
    }

    private String jobsUrl() throws IOException {
        return "http://127.0.0.1:" + Files.readString(runDir.resolve("coach.ports")).strip().split(" ")[1] + "/jobs";
    }

    private static long lastStep(String status) {
        Matcher m = LAST_STEP.matcher(status);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    /** The first number the pattern's group matches in the text: a top-level field of a metrics line comes before its nested learner metrics. */
    private static long first(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        if (!m.find()) throw new AssertionError("no " + pattern + " in " + text);
        return Long.parseLong(m.group(1));
    }

    private static long newestCheckpoint(Path checkpoints) throws IOException {
        try (Stream<Path> files = Files.list(checkpoints)) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.matches("checkpoint-\\d+\\.tcc"))
                    .mapToLong(n -> Long.parseLong(n.replaceAll("\\D", ""))).max()
                    .orElseThrow(() -> new AssertionError("no checkpoint in " + checkpoints));
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
