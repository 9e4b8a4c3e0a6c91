package dev.toolcoach.model.io;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.trace.UntrustedJson;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads a .safetensors file with its own header parser. {@link #locate} checks the header and says where each tensor's
 * bytes are, reading none of them; {@link #read} decodes them all to f32 on the heap (small files: adapters, tests).
 */
public final class SafetensorsReader {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MAX_HEADER = 100L << 20;

    private SafetensorsReader() {
    }

    /** Every tensor of the file, converted to f32; the whole file is validated before anything is returned. */
    public static Map<String, HostTensor> read(Path file) {
        return read(file, TensorReader.DEFAULT_BLOCK_BYTES);
    }

    /** As {@link #read(Path)}, reading at most {@code blockBytes} bytes at a time. */
    public static Map<String, HostTensor> read(Path file, int blockBytes) {
        Map<String, StoredTensor> located = locate(file);
        Map<String, HostTensor> out = new LinkedHashMap<>();
        try (TensorReader reader = new TensorReader(blockBytes)) {
            located.forEach((name, t) -> out.put(name, reader.read(t)));
        }
        return out;
    }

    /**
     * Where every tensor of the file is, in header order, after checking each one's dtype, shape and byte range
     * against the header and the file's size.
     */
    public static Map<String, StoredTensor> locate(Path file) {
        try (FileChannel ch = open(file)) {
            Header h = header(file, ch);
            Map<String, StoredTensor> out = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = h.json().fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getKey().equals("__metadata__")) {
                    out.put(e.getKey(), locateTensor(file, h, e.getKey(), e.getValue()));
                }
            }
            return out;
        } catch (IOException e) {
            throw new ModelLoadException(file, "cannot read (" + e.getMessage() + ")", e);
        }
    }

    /** The header's string metadata ({@code __metadata__}), empty when absent. */
    public static Map<String, String> metadata(Path file) {
        try (FileChannel ch = open(file)) {
            Map<String, String> out = new LinkedHashMap<>();
            header(file, ch).json().path("__metadata__").fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
            return out;
        } catch (IOException e) {
            throw new ModelLoadException(file, "cannot read (" + e.getMessage() + ")", e);
        }
    }

    private record Header(JsonNode json, long dataStart, long fileSize) {
    }

    private static FileChannel open(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new ModelLoadException(file, "file not found");
        }
        return FileChannel.open(file, StandardOpenOption.READ);
    }

    private static Header header(Path file, FileChannel ch) throws IOException {
        long size = ch.size();
        if (size < 8) {
            throw new ModelLoadException(file, "truncated safetensors: " + size + " bytes, no header length");
        }
        ByteBuffer lenBuf = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        ch.read(lenBuf, 0);
        long headerLen = lenBuf.getLong(0);
        if (headerLen <= 0 || headerLen > MAX_HEADER || 8 + headerLen > size) {
            throw new ModelLoadException(file, "corrupt safetensors: header length " + headerLen + " for a file of " + size + " bytes");
        }
        ByteBuffer hb = ByteBuffer.allocate((int) headerLen);
        ch.read(hb, 8);
        JsonNode json;
        try {
            json = JSON.readTree(hb.array());
        } catch (IOException e) {
            throw new ModelLoadException(file, "corrupt safetensors: header is " + (e instanceof JsonProcessingException j
                    ? UntrustedJson.reason(j) : "not readable (" + e.getMessage() + ")"), e);
        }
        if (json == null || !json.isObject()) {
            throw new ModelLoadException(file, "corrupt safetensors: header is not a JSON object");
        }
        return new Header(json, 8 + headerLen, size);
    }

    private static StoredTensor locateTensor(Path file, Header h, String name, JsonNode info) {
        long dataStart = h.dataStart();
        String dtype = info.path("dtype").asText();
        JsonNode shapeNode = info.path("shape");
        JsonNode offsets = info.path("data_offsets");
        if (!shapeNode.isArray() || !offsets.isArray() || offsets.size() != 2) {
            throw new ModelLoadException(file, "corrupt safetensors: tensor '" + name + "' lacks shape or data_offsets");
        }
        long[] shape = new long[shapeNode.size()];
        for (int i = 0; i < shape.length; i++) {
            shape[i] = shapeNode.get(i).asLong();
        }
        StoredTensor.Dtype type = switch (dtype) {
            case "F32" -> StoredTensor.Dtype.F32;
            case "F16" -> StoredTensor.Dtype.F16;
            case "BF16" -> StoredTensor.Dtype.BF16;
            default -> throw new ModelLoadException(file, "tensor '" + name + "' has unsupported dtype " + dtype + " (F32, F16, BF16 only)");
        };
        long numel = HostTensor.numel(shape);
        long begin = offsets.get(0).asLong();
        long end = offsets.get(1).asLong();
        if (end - begin != numel * type.width()) {
            throw new ModelLoadException(file, "corrupt safetensors: tensor '" + name + "' spans " + (end - begin)
                    + " bytes but its shape needs " + numel * type.width());
        }
        if (begin < 0 || dataStart + end > h.fileSize()) {
            throw new ModelLoadException(file, "truncated safetensors: tensor '" + name + "' ends at byte " + (dataStart + end)
                    + " but the file has " + h.fileSize());
        }
        return new StoredTensor(file, name, type, shape, dataStart + begin, null);
    }
}
