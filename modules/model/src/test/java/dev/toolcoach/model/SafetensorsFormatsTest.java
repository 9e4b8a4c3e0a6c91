package dev.toolcoach.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.io.SafetensorsReader;
import dev.toolcoach.model.io.SafetensorsWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SafetensorsFormatsTest {
    @Test
    void f16AndBf16AreConvertedToF32InJava(@TempDir Path dir) throws IOException {
        // 1.0, -2.5, 0.099975586 (f16 0x2E66), 65504 (f16 max), 2^-24 (smallest f16 subnormal)
        short[] f16 = {0x3C00, (short) 0xC100, 0x2E66, 0x7BFF, 0x0001};
        float[] f16Expected = {1f, -2.5f, 0.099975586f, 65504f, 0x1p-24f};
        // bf16 is the top half of an f32
        float[] bf16Values = {1f, -2.5f, 3.140625f, 1e30f};
        short[] bf16 = new short[bf16Values.length];
        for (int i = 0; i < bf16.length; i++) {
            bf16[i] = (short) (Float.floatToIntBits(bf16Values[i]) >>> 16);
        }
        String header = "{\"a\":{\"dtype\":\"F16\",\"shape\":[5],\"data_offsets\":[0,10]},"
                + "\"b\":{\"dtype\":\"BF16\",\"shape\":[2,2],\"data_offsets\":[10,18]}}";
        byte[] h = header.getBytes(StandardCharsets.UTF_8);
        ByteBuffer buf = ByteBuffer.allocate(8 + h.length + 18).order(ByteOrder.LITTLE_ENDIAN);
        buf.putLong(h.length).put(h);
        for (short s : f16) {
            buf.putShort(s);
        }
        for (short s : bf16) {
            buf.putShort(s);
        }
        Path file = dir.resolve("x.safetensors");
        Files.write(file, buf.array());
        Map<String, HostTensor> t = SafetensorsReader.read(file, 6); // 3 halves per read: block edges inside tensors
        assertArrayEquals(f16Expected, t.get("a").data());
        float[] bfExpected = new float[bf16Values.length];
        for (int i = 0; i < bfExpected.length; i++) {
            bfExpected[i] = Float.intBitsToFloat(Float.floatToIntBits(bf16Values[i]) & 0xffff0000);
        }
        assertArrayEquals(bfExpected, t.get("b").data());
        assertArrayEquals(new long[] {2, 2}, t.get("b").shape());
    }

    @Test
    void largeTensorsAreMappedInChunks(@TempDir Path dir) throws IOException {
        float[] values = new float[1001];
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 0.5f - 7f;
        }
        Path file = dir.resolve("big.safetensors");
        SafetensorsWriter.write(file, Map.of("w", new HostTensor(new long[] {7, 143}, values)), Map.of());
        assertArrayEquals(values, SafetensorsReader.read(file, 100).get("w").data());
        assertArrayEquals(values, SafetensorsReader.read(file).get("w").data());
    }
}
