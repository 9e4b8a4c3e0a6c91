package dev.toolcoach.learn.checkpoint;

import dev.toolcoach.model.io.HostTensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CheckpointStoreTest {
    @TempDir
    Path dir;

    static Checkpoint checkpoint(int step) {
        return new Checkpoint(step, step + 100, 0xABCDEFL + step, ("cursor-" + step).getBytes(),
                Map.of("w", new HostTensor(new long[] {2, 2}, new float[] {1, 2, 3, step})),
                Map.of("m/w", new HostTensor(new long[] {2, 2}, new float[] {0.5f, 0, 0, 0}),
                        "v/w", new HostTensor(new long[] {2, 2}, new float[] {0, 0, 0, 0.25f})));
    }

    @Test
    void roundTripsEveryField() {
        CheckpointStore store = new CheckpointStore(dir, 3);
        store.save(checkpoint(7));
        Checkpoint c = store.loadLatest().checkpoint().orElseThrow();
        assertEquals(7, c.step());
        assertEquals(107, c.version());
        assertEquals(0xABCDEFL + 7, c.rngState());
        assertArrayEquals("cursor-7".getBytes(), c.cursor());
        assertArrayEquals(new float[] {1, 2, 3, 7}, c.weights().get("w").data());
        assertArrayEquals(new long[] {2, 2}, c.weights().get("w").shape());
        assertArrayEquals(new float[] {0, 0, 0, 0.25f}, c.optimiser().get("v/w").data());
    }

    @Test
    void readsACheckpointWrittenWhenVersionsWereLongs() throws IOException {
        // written by CheckpointStore.save(checkpoint(7)) before the policy version became an int
        Path legacy = Path.of("src/test/resources/checkpoint/written-before-int-versions/checkpoint-000000000007.tcc");
        Files.copy(legacy, dir.resolve(legacy.getFileName()));
        Checkpoint c = new CheckpointStore(dir, 3).loadLatest().checkpoint().orElseThrow();
        assertEquals(7, c.step());
        assertEquals(107, c.version());
        assertEquals(0xABCDEFL + 7, c.rngState());
        assertArrayEquals("cursor-7".getBytes(), c.cursor());
        assertArrayEquals(new float[] {1, 2, 3, 7}, c.weights().get("w").data());
        assertArrayEquals(new float[] {0, 0, 0, 0.25f}, c.optimiser().get("v/w").data());
        assertArrayEquals(Files.readAllBytes(legacy), Files.readAllBytes(new CheckpointStore(dir.resolve("again"), 1)
                .save(checkpoint(7))), "today's encoding of the same checkpoint is byte for byte the old one");
    }

    @Test
    void keepsTheNewestAndLeavesNoTemporaryFiles() throws IOException {
        CheckpointStore store = new CheckpointStore(dir, 2);
        for (int s = 1; s <= 4; s++) store.save(checkpoint(s));
        try (var files = Files.list(dir)) {
            assertEquals(List.of("checkpoint-000000000003.tcc", "checkpoint-000000000004.tcc"),
                    files.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void aDamagedNewestCheckpointIsRefusedAndThePreviousOneUsedAndAnAuditListsBoth() throws IOException {
        CheckpointStore store = new CheckpointStore(dir, 3);
        store.save(checkpoint(1));
        Path newest = store.save(checkpoint(2));
        byte[] bytes = Files.readAllBytes(newest);
        bytes[bytes.length / 2] ^= 0x40;
        Files.write(newest, bytes);
        CheckpointStore.Restored r = store.loadLatest();
        assertEquals(1, r.checkpoint().orElseThrow().step());
        assertEquals(1, r.refused().size());
        assertTrue(r.refused().get(0).contains("checksum mismatch"), r.refused().get(0));
        assertTrue(r.refused().get(0).contains(newest.getFileName().toString()));

        List<CheckpointStore.Verified> all = store.verifyAll();
        assertEquals(2, all.size());
        assertEquals(2, all.get(0).step());
        assertTrue(all.get(0).refusal().contains("checksum mismatch"), all.get(0).refusal());
        assertEquals(new CheckpointStore.Verified(dir.resolve("checkpoint-000000000001.tcc"), 1, 101, null), all.get(1));
    }

    @Test
    void aTruncatedOrForeignFileIsRefused() throws IOException {
        CheckpointStore store = new CheckpointStore(dir, 3);
        Path first = store.save(checkpoint(1));
        Path partial = store.save(checkpoint(2));
        byte[] bytes = Files.readAllBytes(partial);
        Files.write(partial, Arrays.copyOf(bytes, bytes.length - 9));
        Files.writeString(dir.resolve("checkpoint-000000000003.tcc"), "not a checkpoint at all");
        CheckpointStore.Restored r = store.loadLatest();
        assertEquals(first, r.file().orElseThrow());
        assertEquals(2, r.refused().size());
        assertTrue(r.refused().get(0).contains("bad magic"), r.refused().get(0));
    }

    @Test
    void anEmptyDirectoryRestoresNothing() {
        assertTrue(new CheckpointStore(dir.resolve("none"), 1).loadLatest().checkpoint().isEmpty());
    }
}
