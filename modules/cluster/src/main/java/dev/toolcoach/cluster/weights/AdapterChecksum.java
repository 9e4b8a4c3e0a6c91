package dev.toolcoach.cluster.weights;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;

/** CRC32 over the IEEE-754 bits of a float array (little-endian), identical on every node. */
public final class AdapterChecksum {

    private AdapterChecksum() {
    }

    public static long of(float[] values) {
        ByteBuffer bytes = ByteBuffer.allocate(values.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asFloatBuffer().put(values);
        CRC32 crc = new CRC32();
        crc.update(bytes);
        return crc.getValue();
    }
}
