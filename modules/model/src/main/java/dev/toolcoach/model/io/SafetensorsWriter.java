package dev.toolcoach.model.io;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/** Writes tensors as an F32 .safetensors file (keys in map order). */
public final class SafetensorsWriter {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SafetensorsWriter() {
    }

    public static void write(Path file, Map<String, HostTensor> tensors, Map<String, String> metadata) throws IOException {
        write(file, tensors, metadata, StoredTensor.Dtype.F32);
    }

    /** Writes the tensors in {@code dtype} (F32, or BF16 rounded to nearest even, as PyTorch rounds). */
    public static void write(Path file, Map<String, HostTensor> tensors, Map<String, String> metadata, StoredTensor.Dtype dtype)
            throws IOException {
        Map<String, long[]> shapes = new LinkedHashMap<>();
        tensors.forEach((name, t) -> shapes.put(name, t.shape()));
        write(file, shapes, name -> tensors.get(name).data(), metadata, dtype);
    }

    /**
     * Writes tensors of the given shapes whose values {@code values} makes one at a time, in the order of {@code shapes}:
     * a model larger than the heap can be written tensor by tensor.
     */
    public static void write(Path file, Map<String, long[]> shapes, Function<String, float[]> values, Map<String, String> metadata,
                             StoredTensor.Dtype dtype) throws IOException {
        if (dtype == StoredTensor.Dtype.F16) {
            throw new IllegalArgumentException("writing F16 is not supported (F32 or BF16)");
        }
        ObjectNode header = JSON.createObjectNode();
        if (!metadata.isEmpty()) {
            ObjectNode meta = header.putObject("__metadata__");
            metadata.forEach(meta::put);
        }
        long offset = 0;
        for (Map.Entry<String, long[]> e : shapes.entrySet()) {
            ObjectNode t = header.putObject(e.getKey());
            t.put("dtype", dtype.name());
            var shape = t.putArray("shape");
            for (long d : e.getValue()) {
                shape.add(d);
            }
            long bytes = dtype.width() * HostTensor.numel(e.getValue());
            t.putArray("data_offsets").add(offset).add(offset + bytes);
            offset += bytes;
        }
        byte[] headerBytes = JSON.writeValueAsString(header).getBytes(StandardCharsets.UTF_8);
        int padded = (headerBytes.length + 7) / 8 * 8; // data section stays 8-byte aligned, as the format recommends
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            ByteBuffer len = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(padded);
            out.write(len.array());
            out.write(headerBytes);
            for (int i = headerBytes.length; i < padded; i++) {
                out.write(' ');
            }
            for (Map.Entry<String, long[]> e : shapes.entrySet()) {
                float[] data = values.apply(e.getKey());
                if (data.length != HostTensor.numel(e.getValue())) {
                    throw new IllegalArgumentException("tensor '" + e.getKey() + "' has " + data.length + " values, its shape needs "
                            + HostTensor.numel(e.getValue()));
                }
                ByteBuffer b = ByteBuffer.allocate(dtype.width() * data.length).order(ByteOrder.LITTLE_ENDIAN);
                if (dtype == StoredTensor.Dtype.F32) {
                    b.asFloatBuffer().put(data);
                } else {
                    for (float v : data) {
                        b.putShort(FloatFormats.floatToBf16(v));
                    }
                }
                out.write(b.array());
            }
        }
    }
}
