package dev.toolcoach.bench.cluster;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A cluster of separate node JVMs on 127.0.0.1, run by {@code deploy/local/cluster.sh} from the shaded jars in
 * the repository, in a run folder of its own and on ports away from the defaults. {@link #close} runs
 * {@code cluster.sh down}, which stops only the JVMs this cluster started (their PIDs carry the run folder's
 * marker); a shutdown hook does the same if the bench is interrupted. The nodes run with {@code OMP_NUM_THREADS=1}.
 */
final class LocalCluster implements AutoCloseable {

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\\{[^}]*\\})?)\\s+(\\S+)$");

    private final Path repo;
    private final Path runDir;
    private final Map<String, String> environment;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Thread hook;
    private boolean down;

    private LocalCluster(Path repo, Path runDir, Map<String, String> environment) {
        this.repo = repo;
        this.runDir = runDir;
        this.environment = environment;
        this.hook = new Thread(this::downQuietly, "cluster-down");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** The repository root: the working directory or one of its parents, the one holding {@code deploy/local/cluster.sh}. */
    static Path repository() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("deploy/local/cluster.sh"))) return dir;
        }
        throw new IllegalStateException("run from the repository (no deploy/local/cluster.sh above " + Path.of("").toAbsolutePath() + ")");
    }

    /**
     * Starts a coach node, {@code athletes} athlete nodes and {@code tools} tool nodes and waits until each is ready.
     *
     * @param javaOpts options of every node JVM (heap cap, system properties that configure the nodes)
     */
    static LocalCluster up(Path runDir, int athletes, int tools, String javaOpts, int basePort, int baseManagementPort)
            throws IOException, InterruptedException {
        Files.createDirectories(runDir);
        // OMP_NUM_THREADS=1: PyTorch's default is one intra-op thread per core on every thread that does not set its own
        // (the learner's training thread does not); with several JVMs on two cores, OpenMP's spin-waiting then slows a
        // training step several times over (the recipe notes: 5.9 s instead of 0.33 s)
        LocalCluster cluster = new LocalCluster(repository(), runDir, Map.of("OMP_NUM_THREADS", "1", "TOOLCOACH_RUN_DIR", runDir.toString(),
                "TOOLCOACH_JAVA_OPTS", javaOpts, "TOOLCOACH_BASE_PORT", Integer.toString(basePort),
                "TOOLCOACH_BASE_MANAGEMENT_PORT", Integer.toString(baseManagementPort), "TOOLCOACH_STOP_TIMEOUT", "30"));
        try {
            cluster.script("up", "--athletes", Integer.toString(athletes), "--tools", Integer.toString(tools));
        } catch (RuntimeException | IOException | InterruptedException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /** Runs {@code cluster.sh args} in the run folder (its working directory); its output, or an exception naming it. */
    String script(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", repo.resolve("deploy/local/cluster.sh").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).directory(runDir.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException("cluster.sh " + String.join(" ", args) + " did not finish in 5 minutes");
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("cluster.sh " + String.join(" ", args) + " failed (" + process.exitValue() + "):\n" + output);
        }
        return output;
    }

    /** Nodes of a kind ({@code coach}, {@code athlete}, {@code tool}) by their names in the run folder, in number order. */
    List<String> nodes(String kind) throws IOException {
        try (Stream<Path> files = Files.list(runDir)) {
            return files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".pid"))
                    .map(f -> f.substring(0, f.length() - 4)).filter(n -> n.equals(kind) || n.startsWith(kind + "-")).sorted().toList();
        }
    }

    long pid(String node) throws IOException {
        return Long.parseLong(Files.readString(runDir.resolve(node + ".pid")).strip());
    }

    int clusterPort(String node) throws IOException {
        return Integer.parseInt(Files.readString(runDir.resolve(node + ".ports")).strip().split(" ")[0]);
    }

    URI url(String node, String path) throws IOException {
        String management = Files.readString(runDir.resolve(node + ".ports")).strip().split(" ")[1];
        return URI.create("http://127.0.0.1:" + management + path);
    }

    String get(String node, String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(url(node, path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) throw new IOException("GET " + url(node, path) + ": " + response.statusCode());
        return response.body();
    }

    /** A node's {@code /metrics}, each sample by its name and labels as written ({@code name{a="b"}}). */
    Map<String, Double> metrics(String node) throws IOException, InterruptedException {
        Map<String, Double> samples = new HashMap<>();
        for (String line : get(node, "/metrics").split("\n")) {
            if (line.startsWith("#")) continue;
            Matcher m = SAMPLE.matcher(line.strip());
            if (m.matches()) samples.put(m.group(1), Double.parseDouble(m.group(2)));
        }
        return samples;
    }

    /** The sum of the samples whose name and labels pass {@code filter}. */
    static double sum(Map<String, Double> samples, Predicate<String> filter) {
        return samples.entrySet().stream().filter(e -> filter.test(e.getKey())).mapToDouble(Map.Entry::getValue).sum();
    }

    /** CPU seconds (user + system) a node's JVM has used so far, from {@code /proc/<pid>/stat} (clock ticks of 10 ms). */
    double cpuSeconds(String node) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid(node)), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0; // utime, stime (fields 14, 15)
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (down) return;
        down = true;
        script("down");
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running already
        }
    }

    private void downQuietly() {
        try {
            if (!down) {
                down = true;
                script("down");
            }
        } catch (IOException | RuntimeException e) {
            System.err.println("cluster.sh down failed for " + runDir + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
