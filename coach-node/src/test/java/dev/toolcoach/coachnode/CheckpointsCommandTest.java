package dev.toolcoach.coachnode;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolcoach.learn.checkpoint.Checkpoint;
import dev.toolcoach.learn.checkpoint.CheckpointStore;
import dev.toolcoach.model.io.HostTensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CheckpointsCommandTest {

    private static Checkpoint checkpoint(int step) {
        return new Checkpoint(step, step * 2, step, new byte[0],
                Map.of("w", new HostTensor(new long[] {2}, new float[] {step, 1})), Map.of());
    }

    @Test
    void listsEveryCheckpointAndFailsOnADamagedOne(@TempDir Path run) throws Exception {
        CheckpointStore store = new CheckpointStore(run.resolve("checkpoints"), 5);
        store.save(checkpoint(1));
        Path second = store.save(checkpoint(2));

        CommandsTest.Run good = CommandsTest.run(new CheckpointsCommand(), run.toString());
        assertEquals(0, good.code(), good.err());
        JsonNode rows = good.summary().get("checkpoints");
        assertEquals(2, rows.size());
        assertEquals(2, rows.get(0).get("step").asLong());
        assertEquals(4, rows.get(0).get("version").asInt());
        assertTrue(rows.get(1).get("ok").asBoolean());

        byte[] bytes = Files.readAllBytes(second);
        bytes[bytes.length - 3] ^= 0x10;
        Files.write(second, bytes);
        CommandsTest.Run damaged = CommandsTest.run(new CheckpointsCommand(), run.toString());
        assertEquals(1, damaged.code());
        assertEquals(1, damaged.summary().get("damaged").asInt());
        assertEquals(false, damaged.summary().get("checkpoints").get(0).get("ok").asBoolean());
    }

    @Test
    void aMissingFolderIsOneLineAndExitTwo(@TempDir Path dir) {
        CommandsTest.Run r = CommandsTest.run(new CheckpointsCommand(), dir.resolve("nope").toString());
        assertEquals(2, r.code());
        assertEquals("checkpoints: " + dir.resolve("nope") + " is not a folder\n", r.err());
    }
}
