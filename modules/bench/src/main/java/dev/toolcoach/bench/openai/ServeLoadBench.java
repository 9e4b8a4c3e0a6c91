package dev.toolcoach.bench.openai;

import dev.toolcoach.testkit.TinyChatModel;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;
import org.apache.commons.math3.stat.regression.SimpleRegression;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code coach-node serve} held under load: the real server in a JVM of its own (the shaded jar, {@code --max-batch}
 * as many as there are clients, so none is turned away with 429), {@code clients} streaming chat completions at once, each sending its next request as soon as the last one ends, for {@code minutes}.
 * Prints the requests answered, the errors (a status other than 200, a stream without {@code [DONE]}, an exception), the
 * time to the first streamed chunk and to the end (p50, p99, max), and the server's resident size sampled every 10 s:
 * first, last, peak and its slope over the second half of the run (a leak grows it; a server at its working set stays
 * flat).
 *
 * <p>Run (after {@code mvn -B -DskipTests install}): {@code java -cp modules/bench/target/benchmarks.jar
 * dev.toolcoach.bench.openai.ServeLoadBench coach-node/target/coach-node.jar [clients] [minutes] [model folder]}
 * (default 64 clients, 10 minutes, a tiny random Qwen2 folder written for the run).
 */
public final class ServeLoadBench {

    private static final Pattern SERVING = Pattern.compile("serving (\\S+) at (http://127\\.0\\.0\\.1:\\d+/v1)");
    private static final int MAX_TOKENS = 32;

    private ServeLoadBench() {
    }

    public static void main(String[] args) throws Exception {
        // a client must not reuse a connection the server may already have closed as idle (toolcoach.http closes one
        // without a request after 10 s): keep idle connections 5 s at most, as a well-set client does
        if (System.getProperty("jdk.httpclient.keepalive.timeout") == null) {
            System.setProperty("jdk.httpclient.keepalive.timeout", "5");
        }
        if (args.length < 1) {
            System.err.println("usage: ServeLoadBench COACH_NODE_JAR [clients] [minutes] [model folder]");
            System.exit(2);
        }
        Path jar = Path.of(args[0]);
        int clients = args.length > 1 ? Integer.parseInt(args[1]) : 64;
        double minutes = args.length > 2 ? Double.parseDouble(args[2]) : 10;
        Path model = args.length > 3 ? Path.of(args[3]) : TinyChatModel.write(Files.createTempDirectory("serve-load").resolve("tiny"), 21);

        Process server = new ProcessBuilder("java", "-Xmx1g", "-jar", jar.toString(), "serve", "--model", model.toString(),
                "--port", "0", "--max-batch", Integer.toString(clients)).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            String name = null;
            String base = null;
            for (String line; base == null && (line = out.readLine()) != null; ) {
                Matcher m = SERVING.matcher(line);
                if (m.find()) {
                    name = m.group(1);
                    base = m.group(2);
                }
            }
            if (base == null) throw new IllegalStateException("serve exited before it reported its address");
            run(server.pid(), base, name, clients, Duration.ofMillis((long) (minutes * 60_000)));
        } finally {
            server.destroy();
            if (!server.waitFor(30, TimeUnit.SECONDS)) server.destroyForcibly();
        }
    }

    private static void run(long pid, String base, String model, int clients, Duration length) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        long end = System.nanoTime() + length.toNanos();
        ConcurrentLinkedQueue<long[]> latencies = new ConcurrentLinkedQueue<>(); // {first chunk ns, total ns}
        AtomicLong errors = new AtomicLong();
        List<String> firstErrors = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(clients);
        for (int c = 0; c < clients; c++) {
            int client = c;
            Thread thread = new Thread(() -> {
                try {
                    for (long n = 0; System.nanoTime() < end; n++) {
                        String body = String.format(Locale.ROOT, "{\"model\": \"%s\", \"stream\": true, \"max_tokens\": %d,"
                                + " \"temperature\": 1.0, \"seed\": %d, \"messages\": [{\"role\": \"user\", \"content\":"
                                + " \"What is %d times %d?\"}]}", model, MAX_TOKENS, client * 1_000_003L + n, client, n);
                        try {
                            latencies.add(stream(http, base, body));
                        } catch (IOException | RuntimeException e) {
                            errors.incrementAndGet();
                            synchronized (firstErrors) {
                                if (firstErrors.size() < 5) firstErrors.add(e.toString());
                            }
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    done.countDown();
                }
            }, "client-" + c);
            thread.setDaemon(true);
            thread.start();
        }
        List<double[]> rss = new ArrayList<>(); // {seconds, MiB}
        long start = System.nanoTime();
        while (!done.await(10, TimeUnit.SECONDS)) {
            rss.add(new double[] {(System.nanoTime() - start) / 1e9, residentMib(pid)});
            System.out.printf(Locale.ROOT, "%5.0f s  %7d answered  %4d errors  rss %6.0f MiB%n", rss.get(rss.size() - 1)[0],
                    latencies.size(), errors.get(), rss.get(rss.size() - 1)[1]);
        }
        report(clients, length, latencies, errors.get(), firstErrors, rss);
    }

    /** One streamed completion: {time to the first chunk, time to [DONE]} in nanoseconds. */
    private static long[] stream(HttpClient http, String base, String body) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/chat/completions")).timeout(Duration.ofSeconds(120))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<Stream<String>> response = http.send(request, HttpResponse.BodyHandlers.ofLines());
        try (Stream<String> lines = response.body()) {
            if (response.statusCode() != 200) throw new IOException("status " + response.statusCode());
            long[] first = {0};
            boolean ended = lines.filter(l -> l.startsWith("data: ")).peek(l -> {
                if (first[0] == 0) first[0] = System.nanoTime() - t0;
            }).anyMatch(l -> l.equals("data: [DONE]"));
            if (!ended) throw new IOException("the stream ended without [DONE]");
            return new long[] {first[0], System.nanoTime() - t0};
        }
    }

    private static double residentMib(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
        }
        return Double.NaN;
    }

    private static void report(int clients, Duration length, ConcurrentLinkedQueue<long[]> latencies, long errors,
                               List<String> firstErrors, List<double[]> rss) {
        long[] firsts = latencies.stream().mapToLong(l -> l[0]).toArray();
        long[] totals = latencies.stream().mapToLong(l -> l[1]).toArray();
        System.out.printf(Locale.ROOT, "%d streaming clients for %.1f min: %d completions (%.1f/s), %d errors%s%n", clients,
                length.toMillis() / 60_000.0, totals.length, totals.length / (length.toMillis() / 1000.0), errors,
                firstErrors.isEmpty() ? "" : " (first: " + String.join("; ", firstErrors) + ")");
        System.out.printf(Locale.ROOT, "first chunk ms: p50 %.0f  p99 %.0f  max %.0f%n", ms(firsts, 0.5), ms(firsts, 0.99),
                ms(firsts, 1.0));
        System.out.printf(Locale.ROOT, "whole answer (%d tokens at most) ms: p50 %.0f  p99 %.0f  max %.0f%n", MAX_TOKENS,
                ms(totals, 0.5), ms(totals, 0.99), ms(totals, 1.0));
        if (rss.isEmpty()) return;
        double peak = rss.stream().mapToDouble(r -> r[1]).max().orElse(Double.NaN);
        List<double[]> secondHalf = rss.subList(rss.size() / 2, rss.size());
        System.out.printf(Locale.ROOT, "server RSS MiB: first %.0f  last %.0f  peak %.0f  slope over the second half %+.1f MiB/h"
                        + " (%d samples)%n", rss.get(0)[1], rss.get(rss.size() - 1)[1], peak, 3600 * slope(secondHalf),
                secondHalf.size());
    }

    private static double ms(long[] nanos, double quantile) {
        if (nanos.length == 0) return Double.NaN;
        double[] values = Arrays.stream(nanos).asDoubleStream().toArray();
        return (quantile >= 1 ? Arrays.stream(values).max().orElseThrow() : new Percentile().evaluate(values, 100 * quantile)) / 1e6;
    }

    /** Least-squares slope of MiB over seconds. */
    private static double slope(List<double[]> points) {
        SimpleRegression regression = new SimpleRegression();
        points.forEach(p -> regression.addData(p[0], p[1]));
        return regression.getSlope();
    }
}
