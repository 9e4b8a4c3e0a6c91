package dev.toolcoach.model.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads {@link StoredTensor}s block by block with positional reads into one reused direct buffer and decodes them to
 * f32 in the caller's buffer, so loading a model never holds more than one block of it on the Java heap or in
 * direct memory. Positional reads rather than memory-mapping: a mapped region's pages count in the process's
 * resident memory until the garbage collector unmaps it, which would add the whole file to a load's peak.
 */
public final class TensorReader implements AutoCloseable {
    /** Bytes per block by default: 4 MiB. */
    public static final int DEFAULT_BLOCK_BYTES = 4 << 20;

    private final Map<Path, FileChannel> channels = new HashMap<>();
    private final int blockBytes;
    private ByteBuffer raw = ByteBuffer.allocateDirect(0);

    public TensorReader() {
        this(DEFAULT_BLOCK_BYTES);
    }

    /** A reader that reads at most {@code blockBytes} bytes of a file at a time. */
    public TensorReader(int blockBytes) {
        if (blockBytes < 4) {
            throw new IllegalArgumentException("a block must hold at least one value, was " + blockBytes + " bytes");
        }
        this.blockBytes = blockBytes;
    }

    /**
     * Decodes rows {@code [first, first + count)} into {@code out} (from its position on; it advances by
     * {@code count * cols} values).
     *
     * @throws ModelLoadException naming the file when it cannot be read or ends early
     */
    public void readRows(StoredTensor t, long first, int count, FloatBuffer out) {
        long rowBytes = t.cols() * t.dtype().width();
        try {
            FileChannel ch = channel(t.file());
            if (t.sourceRow() == null) {
                readDecoded(t, ch, t.offset() + first * rowBytes, (long) count * rowBytes, out);
            } else {
                for (int r = 0; r < count; r++) {
                    readDecoded(t, ch, t.offset() + t.sourceRow().applyAsInt((int) (first + r)) * rowBytes, rowBytes, out);
                }
            }
        } catch (IOException e) {
            throw new ModelLoadException(t.file(), "cannot read tensor '" + t.name() + "' (" + e.getMessage() + ")", e);
        }
    }

    /** The whole tensor on the heap: for small tensors (norms, biases) and for callers that need host values. */
    public HostTensor read(StoredTensor t) {
        if (t.numel() > Integer.MAX_VALUE - 8) {
            throw new ModelLoadException(t.file(), "tensor '" + t.name() + "' has " + t.numel() + " elements, more than one Java array holds");
        }
        float[] data = new float[(int) t.numel()];
        FloatBuffer out = FloatBuffer.wrap(data);
        int rowsPerBlock = rowsPerBlock(t);
        for (long r = 0; r < t.rows(); r += rowsPerBlock) {
            readRows(t, r, (int) Math.min(rowsPerBlock, t.rows() - r), out);
        }
        return new HostTensor(t.shape(), data);
    }

    /** Rows per block of at most one block's worth of f32 values, at least one. */
    public int rowsPerBlock(StoredTensor t) {
        return (int) Math.max(1, Math.min(t.rows(), blockBytes / Float.BYTES / Math.max(1, t.cols())));
    }

    private void readDecoded(StoredTensor t, FileChannel ch, long position, long bytes, FloatBuffer out) throws IOException {
        for (long done = 0; done < bytes; ) {
            // whole values per read, so a half never straddles two reads
            int n = (int) Math.min(bytes - done, blockBytes - blockBytes % t.dtype().width());
            ByteBuffer buf = staging(n);
            while (buf.hasRemaining()) {
                if (ch.read(buf, position + done + buf.position()) < 0) {
                    throw new ModelLoadException(t.file(), "truncated: tensor '" + t.name() + "' ends past the end of the file");
                }
            }
            buf.flip();
            decode(t.dtype(), buf, out, n / t.dtype().width());
            done += n;
        }
    }

    private ByteBuffer staging(int bytes) {
        if (raw.capacity() < bytes) {
            raw = ByteBuffer.allocateDirect(Math.max(bytes, Math.min(blockBytes, 2 * raw.capacity())))
                    .order(ByteOrder.LITTLE_ENDIAN);
        }
        raw.clear().limit(bytes);
        return raw;
    }

    private static void decode(StoredTensor.Dtype dtype, ByteBuffer buf, FloatBuffer out, int count) {
        switch (dtype) {
            case F32 -> out.put(buf.asFloatBuffer().limit(count));
            case F16 -> {
                for (int i = 0; i < count; i++) {
                    out.put(FloatFormats.f16ToFloat(buf.getShort(2 * i)));
                }
            }
            case BF16 -> {
                for (int i = 0; i < count; i++) {
                    out.put(FloatFormats.bf16ToFloat(buf.getShort(2 * i)));
                }
            }
        }
    }

    private FileChannel channel(Path file) throws IOException {
        FileChannel ch = channels.get(file);
        if (ch == null) {
            ch = FileChannel.open(file, StandardOpenOption.READ);
            channels.put(file, ch);
        }
        return ch;
    }

    @Override
    public void close() {
        for (FileChannel ch : channels.values()) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // read-only channel: nothing is lost
            }
        }
        channels.clear();
    }
}
