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
import java.util.Map;

/** Writes tensors as an F32 .safetensors file (keys in map order). */
public final class SafetensorsWriter {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SafetensorsWriter() {
    }

    public static void write(Path file, Map<String, HostTensor> tensors, Map<String, String> metadata) throws IOException {
        ObjectNode header = JSON.createObjectNode();
        if (!metadata.isEmpty()) {
            ObjectNode meta = header.putObject("__metadata__");
            metadata.forEach(meta::put);
        }
        long offset = 0;
        for (Map.Entry<String, HostTensor> e : tensors.entrySet()) {
            ObjectNode t = header.putObject(e.getKey());
            t.put("dtype", "F32");
            var shape = t.putArray("shape");
            for (long d : e.getValue().shape()) {
                shape.add(d);
            }
            long bytes = 4L * e.getValue().data().length;
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
            for (HostTensor t : tensors.values()) {
                ByteBuffer b = ByteBuffer.allocate(4 * t.data().length).order(ByteOrder.LITTLE_ENDIAN);
                b.asFloatBuffer().put(t.data());
                out.write(b.array());
            }
        }
    }
}
