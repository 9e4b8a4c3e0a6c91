package dev.toolcoach.cluster.weights;

import dev.toolcoach.cluster.protocol.AdapterReceiverProtocol.WeightsChunk;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Cuts a flattened adapter into {@link WeightsChunk}s whose payload stays under a byte limit. */
public final class WeightsChunker {

    /** Artery's default frame is 256 KiB; leave room for the envelope and serializer overhead. */
    public static final int DEFAULT_MAX_CHUNK_BYTES = 192 * 1024;

    private final int floatsPerChunk;

    public WeightsChunker(int maxChunkBytes) {
        if (maxChunkBytes < Float.BYTES) {
            throw new IllegalArgumentException("chunk limit " + maxChunkBytes + " bytes cannot hold one float");
        }
        this.floatsPerChunk = maxChunkBytes / Float.BYTES;
    }

    public List<WeightsChunk> split(int version, float[] adapter) {
        long checksum = AdapterChecksum.of(adapter);
        int count = Math.max(1, (adapter.length + floatsPerChunk - 1) / floatsPerChunk);
        List<WeightsChunk> chunks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int from = i * floatsPerChunk;
            int to = Math.min(adapter.length, from + floatsPerChunk);
            chunks.add(new WeightsChunk(version, i, count, from, adapter.length, checksum, Arrays.copyOfRange(adapter, from, to)));
        }
        return List.copyOf(chunks);
    }
}
