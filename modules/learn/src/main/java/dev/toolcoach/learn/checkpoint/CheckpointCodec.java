package dev.toolcoach.learn.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.model.io.HostTensor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.zip.CRC32C;

/**
 * Binary layout, little-endian: magic "TCCKPT01", int meta length, UTF-8 JSON meta (step, version,
 * rng state, base64 cursor, tensor table), the tensors' float32 values in table order, and a trailing
 * long CRC32C of every preceding byte.
 */
final class CheckpointCodec {
    private static final byte[] MAGIC = "TCCKPT01".getBytes(StandardCharsets.US_ASCII);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String WEIGHTS = "weights";
    private static final String OPTIMISER = "optimiser";

    private CheckpointCodec() {
    }

    static byte[] encode(Checkpoint c) {
        ObjectNode meta = JSON.createObjectNode();
        meta.put("step", c.step());
        meta.put("version", c.version());
        meta.put("rng_state", c.rngState());
        meta.put("cursor", Base64.getEncoder().encodeToString(c.cursor()));
        ArrayNode table = meta.putArray("tensors");
        long floats = 0;
        for (var section : List.of(Map.entry(WEIGHTS, c.weights()), Map.entry(OPTIMISER, c.optimiser()))) {
            for (String name : new TreeSet<>(section.getValue().keySet())) {
                HostTensor t = section.getValue().get(name);
                ObjectNode row = table.addObject();
                row.put("section", section.getKey());
                row.put("name", name);
                ArrayNode shape = row.putArray("shape");
                Arrays.stream(t.shape()).forEach(shape::add);
                floats += t.data().length;
            }
        }
        byte[] metaBytes = meta.toString().getBytes(StandardCharsets.UTF_8);
        ByteBuffer buf = ByteBuffer.allocate(Math.toIntExact(MAGIC.length + 4 + metaBytes.length + 4 * floats + 8))
                .order(ByteOrder.LITTLE_ENDIAN);
        buf.put(MAGIC).putInt(metaBytes.length).put(metaBytes);
        for (JsonNode row : table) {
            Map<String, HostTensor> section = row.get("section").asText().equals(WEIGHTS) ? c.weights() : c.optimiser();
            for (float f : section.get(row.get("name").asText()).data()) {
                buf.putFloat(f);
            }
        }
        CRC32C crc = new CRC32C();
        crc.update(buf.array(), 0, buf.position());
        buf.putLong(crc.getValue());
        return buf.array();
    }

    static Checkpoint decode(Path file, byte[] bytes) throws CorruptCheckpointException {
        int minimum = MAGIC.length + 4 + 8;
        if (bytes.length < minimum) {
            throw new CorruptCheckpointException(file, "only " + bytes.length + " bytes (truncated?)");
        }
        if (!Arrays.equals(MAGIC, Arrays.copyOf(bytes, MAGIC.length))) {
            throw new CorruptCheckpointException(file, "not a ToolCoach checkpoint (bad magic)");
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 8);
        long stored = buf.getLong(bytes.length - 8);
        if (stored != crc.getValue()) {
            throw new CorruptCheckpointException(file, "checksum mismatch (stored " + Long.toHexString(stored)
                    + ", computed " + Long.toHexString(crc.getValue()) + "): partial or damaged write");
        }
        try {
            buf.position(MAGIC.length);
            int metaLength = buf.getInt();
            byte[] metaBytes = new byte[metaLength];
            buf.get(metaBytes);
            JsonNode meta = JSON.readTree(metaBytes);
            Map<String, HostTensor> weights = new LinkedHashMap<>();
            Map<String, HostTensor> optimiser = new LinkedHashMap<>();
            for (JsonNode row : meta.get("tensors")) {
                long[] shape = new long[row.get("shape").size()];
                for (int i = 0; i < shape.length; i++) shape[i] = row.get("shape").get(i).asLong();
                float[] data = new float[Math.toIntExact(Arrays.stream(shape).reduce(1, (a, b) -> a * b))];
                for (int i = 0; i < data.length; i++) data[i] = buf.getFloat();
                String name = row.get("name").asText();
                (row.get("section").asText().equals(WEIGHTS) ? weights : optimiser).put(name, new HostTensor(shape, data));
            }
            if (buf.position() != bytes.length - 8) {
                throw new CorruptCheckpointException(file, (bytes.length - 8 - buf.position()) + " unexpected trailing bytes");
            }
            return new Checkpoint(meta.get("step").asLong(), policyVersion(meta.get("version")), meta.get("rng_state").asLong(),
                    Base64.getDecoder().decode(meta.get("cursor").asText()), weights, optimiser);
        } catch (IOException | RuntimeException e) {
            throw new CorruptCheckpointException(file, "unreadable content: " + e.getMessage());
        }
    }

    /**
     * The policy version as the file holds it: a JSON number, written from a {@code long} by earlier versions of
     * this codec, so it is read wide and narrowed loudly (a version past {@code int} means a foreign file).
     */
    private static int policyVersion(JsonNode version) {
        return Math.toIntExact(version.asLong());
    }
}
