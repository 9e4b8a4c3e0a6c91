package dev.toolcoach.model.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * Reads a .safetensors file with its own header parser; each tensor is memory-mapped on its own, so files
 * larger than 2 GiB work (a single mapping is limited to 2 GiB, one tensor never is in practice).
 */
public final class SafetensorsReader {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MAX_HEADER = 100L << 20;
    private static final long MAX_CHUNK_BYTES = 1L << 30;

    private SafetensorsReader() {
    }

    /** Every tensor of the file, converted to f32; the whole file is validated before anything is returned. */
    public static Map<String, HostTensor> read(Path file) {
        return read(file, MAX_CHUNK_BYTES);
    }

    /** As {@link #read(Path)}, mapping at most {@code chunkBytes} bytes at a time. */
    public static Map<String, HostTensor> read(Path file, long chunkBytes) {
        try (FileChannel ch = open(file)) {
            Header h = header(file, ch);
            Map<String, HostTensor> out = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = h.json().fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getKey().equals("__metadata__")) {
                    out.put(e.getKey(), readTensor(file, ch, h, e.getKey(), e.getValue(), chunkBytes));
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
            throw new ModelLoadException(file, "corrupt safetensors: header is not JSON (" + e.getMessage() + ")", e);
        }
        if (json == null || !json.isObject()) {
            throw new ModelLoadException(file, "corrupt safetensors: header is not a JSON object");
        }
        return new Header(json, 8 + headerLen, size);
    }

    private static void decode(String dtype, ByteBuffer buf, float[] out, int offset, int count) {
        switch (dtype) {
            case "F32" -> buf.asFloatBuffer().get(out, offset, count);
            case "F16" -> {
                for (int i = 0; i < count; i++) {
                    out[offset + i] = FloatFormats.f16ToFloat(buf.getShort(2 * i));
                }
            }
            default -> {
                for (int i = 0; i < count; i++) {
                    out[offset + i] = FloatFormats.bf16ToFloat(buf.getShort(2 * i));
                }
            }
        }
    }

    private static HostTensor readTensor(Path file, FileChannel ch, Header h, String name, JsonNode info, long chunkBytes)
            throws IOException {
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
        int width = switch (dtype) {
            case "F32" -> 4;
            case "F16", "BF16" -> 2;
            default -> throw new ModelLoadException(file, "tensor '" + name + "' has unsupported dtype " + dtype + " (F32, F16, BF16 only)");
        };
        long numel = HostTensor.numel(shape);
        long begin = offsets.get(0).asLong();
        long end = offsets.get(1).asLong();
        if (end - begin != numel * width) {
            throw new ModelLoadException(file, "corrupt safetensors: tensor '" + name + "' spans " + (end - begin)
                    + " bytes but its shape needs " + numel * width);
        }
        if (begin < 0 || dataStart + end > h.fileSize()) {
            throw new ModelLoadException(file, "truncated safetensors: tensor '" + name + "' ends at byte " + (dataStart + end)
                    + " but the file has " + h.fileSize());
        }
        if (numel > Integer.MAX_VALUE - 8) {
            throw new ModelLoadException(file, "tensor '" + name + "' has " + numel + " elements, more than one Java array holds");
        }
        float[] data = new float[(int) numel];
        // one mapping holds at most 2 GiB, so a large tensor is mapped and converted chunk by chunk
        long elementsPerChunk = Math.max(1, chunkBytes / width);
        for (long first = 0; first < numel; first += elementsPerChunk) {
            int count = (int) Math.min(elementsPerChunk, numel - first);
            ByteBuffer buf = ch.map(FileChannel.MapMode.READ_ONLY, dataStart + begin + first * width, (long) count * width)
                    .order(ByteOrder.LITTLE_ENDIAN);
            decode(dtype, buf, data, (int) first, count);
        }
        return new HostTensor(shape, data);
    }
}
