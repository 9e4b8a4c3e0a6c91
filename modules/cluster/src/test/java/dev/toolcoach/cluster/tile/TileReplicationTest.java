package dev.toolcoach.cluster.tile;

import akka.actor.typed.ActorSystem;
import akka.cluster.typed.Cluster;
import dev.toolcoach.agent.adapt.Experience;
import dev.toolcoach.agent.adapt.ToolPreferences;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TILE's federated merge on real nodes: two cluster nodes in separate JVMs (this one and a child) each record their
 * own experience; both end with exactly the sum of the two over the prior. And a node restarted on its durable store
 * keeps its preferences; a store that cannot be read is a clear error.
 */
class TileReplicationTest {
    /** node A: task:a, and its share of task:shared; node B's is in {@link TileNodes#recordNodeB}. */
    private static final String MERGED = "task:a/x=4:1,task:b/x=3:0,task:b/y=0:2,task:shared/x=7:1";

    private static void await(String what, BooleanSupplier condition) {
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) throw new AssertionError("timed out waiting for " + what);
            LockSupport.parkNanos(20_000_000);
        }
    }

    @Test
    void twoNodesInSeparateJvmsMergeToExactlyTheSumOfTheirExperience() throws Exception {
        ActorSystem<Void> a = TileNodes.start(List.of(), "");
        Process b = null;
        try {
            String seed = Cluster.get(a).selfMember().address().toString();
            ToolPreferences prefs = TilePreferences.get(a).preferences();
            for (int i = 0; i < 4; i++) prefs.observe("task:a", "x", true);
            prefs.observe("task:a", "x", false);
            for (int i = 0; i < 5; i++) prefs.observe("task:shared", "x", true);

            b = new ProcessBuilder(TileNodes.javaBin().toString(), "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                    TileNodes.class.getName(), seed).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            BlockingQueue<String> lines = new ArrayBlockingQueue<>(10_000);
            Process child = b;
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) lines.offer(line);
                } catch (java.io.IOException ignored) {
                    // the child ended
                }
            });
            reader.setDaemon(true);
            reader.start();

            await("node A's merged view", () -> TileNodes.counts(prefs).equals(MERGED));
            String last = "";
            long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!last.equals("COUNTS " + MERGED) && System.nanoTime() < end) {
                String line = lines.poll(1, TimeUnit.SECONDS);
                if (line != null) last = line;
            }
            assertEquals("COUNTS " + MERGED, last, "node B's merged view");
            // α_merged = α_a + α_b − α_prior on the counter both nodes wrote to
            assertEquals((1 + 5) + (1 + 2) - 1, prefs.alpha("task:shared", "x"));
            assertEquals((1 + 0) + (1 + 1) - 1, prefs.beta("task:shared", "x"));
            assertEquals(TileNodes.counts(prefs), MERGED, "stays exact: nothing counted twice on later changes");
        } finally {
            if (b != null) {
                b.getOutputStream().close();
                if (!b.waitFor(30, TimeUnit.SECONDS)) b.destroyForcibly();
            }
            a.terminate();
            a.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aRestartedNodeKeepsItsPreferencesAndACorruptStoreIsAClearError(@TempDir Path dir) throws Exception {
        Path store = dir.resolve("tile-store");
        ActorSystem<Void> first = TileNodes.start(List.of(), store.toString());
        ToolPreferences prefs = TilePreferences.get(first).preferences();
        for (int i = 0; i < 6; i++) prefs.observe("task:finance", "steady", true);
        prefs.observe("task:finance", "flaky", false);
        // nothing pending and all counted: the replicated base holds them, which it reads only after the update was
        // stored (a durable key's update succeeds once the durable store has it)
        await("the outcomes stored", () -> !prefs.hasPending() && TileNodes.counts(prefs)
                .equals("task:finance/flaky=0:1,task:finance/steady=6:0"));
        first.terminate();
        first.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);

        ActorSystem<Void> second = TileNodes.start(List.of(), store.toString());
        try {
            ToolPreferences again = TilePreferences.get(second).preferences();
            await("the preferences loaded", () -> TileNodes.counts(again).equals("task:finance/flaky=0:1,task:finance/steady=6:0"));
            assertEquals(new Experience(6, 0), again.experience("task:finance", "steady"));
        } finally {
            second.terminate();
            second.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }

        Path file = store.resolve("tile-preferences.ddata");
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= 0x40;
        Files.write(file, bytes);
        ActorSystem<Void> third = TileNodes.start(List.of(), store.toString());
        try {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> TilePreferences.get(third));
            assertEquals("TILE durable store " + file.toAbsolutePath() + " cannot be read (checksum mismatch); move it away to start "
                    + "from the prior", e.getMessage());
        } finally {
            third.terminate();
            third.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }
}
