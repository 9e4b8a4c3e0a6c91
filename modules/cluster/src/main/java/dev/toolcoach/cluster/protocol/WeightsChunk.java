package dev.toolcoach.cluster.protocol;

import java.util.Arrays;

/**
 * One piece of a versioned LoRA adapter on its way from the learner to the inference engines.
 * An adapter is flattened to one float array and cut into chunks that fit Artery's frame; the
 * receiver reassembles them (see {@link dev.toolcoach.cluster.weights.WeightsAssembler}) and checks
 * the checksum of the whole before swapping the adapter in.
 *
 * @param version     adapter (policy) version, increasing
 * @param index       position of this chunk, 0-based
 * @param count       number of chunks of this version
 * @param offset      where this chunk's first float goes in the whole adapter
 * @param totalFloats length of the whole flattened adapter
 * @param checksum    CRC32 of the whole adapter's float bits, the same in every chunk
 * @param payload     this chunk's floats
 */
public record WeightsChunk(int version, int index, int count, int offset, int totalFloats, long checksum, float[] payload)
        implements KryoSerializable {

    public WeightsChunk {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("chunk index " + index + " outside 0.." + (count - 1));
        }
        if (payload == null || offset < 0 || offset + payload.length > totalFloats) {
            throw new IllegalArgumentException("chunk " + index + " payload missing or outside the adapter (offset "
                    + offset + ", length " + totalFloats + ")");
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WeightsChunk c && version == c.version && index == c.index && count == c.count && offset == c.offset
                && totalFloats == c.totalFloats && checksum == c.checksum && Arrays.equals(payload, c.payload);
    }

    @Override
    public int hashCode() {
        return version * 31 * 31 + index * 31 + Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
        return "WeightsChunk[version=" + version + ", " + (index + 1) + "/" + count + ", floats=" + payload.length + "]";
    }
}
