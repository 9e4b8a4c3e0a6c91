package dev.toolcoach.cluster.protocol;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * An engine's adapter receiver's protocol: the parts of an adapter version, each with the adapter's layout
 * and one chunk of its floats (Kryo).
 */
public final class AdapterReceiverProtocol {

    private AdapterReceiverProtocol() {
    }

    /**
     * Everything an adapter receiver accepts. Sealed: the wire protocol is exactly the records listed; {@link Local}
     * is for the receiver's own messages (publisher listings, the catch-up tick), which never cross the wire.
     */
    public sealed interface Command permits AdapterPart, Local {
    }

    /** A message the receiver sends itself; never serialised. */
    public non-sealed interface Local extends Command {
    }

    /**
     * One chunk of an adapter version with the adapter's layout. Every part carries the (small) layout so a
     * receiver can rebuild the adapter from whichever chunks it gets, whether from the broadcast or a catch-up.
     */
    public record AdapterPart(AdapterLayout layout, WeightsChunk chunk) implements Command, KryoSerializable {
        public AdapterPart {
            Objects.requireNonNull(layout, "layout");
            Objects.requireNonNull(chunk, "chunk");
            if (layout.totalFloats() != chunk.totalFloats()) {
                throw new IllegalArgumentException("layout holds " + layout.totalFloats() + " floats but chunk "
                        + chunk.index() + " of version " + chunk.version() + " belongs to an adapter of " + chunk.totalFloats());
            }
        }
    }

    /**
     * How a flattened adapter's floats map back to PEFT-named tensors, plus its LoRA hyper-parameters: the part
     * of an adapter that is not numbers. Tensors are laid out one after another in this order.
     */
    public record AdapterLayout(int rank, float alpha, float dropout, List<String> targets, List<Tensor> tensors)
            implements KryoSerializable {

        /** One tensor's PEFT name and shape. */
        public record Tensor(String name, long[] shape) {
            public Tensor {
                Objects.requireNonNull(name, "name");
                shape = shape.clone();
            }
        }

        public AdapterLayout {
            targets = List.copyOf(targets);
            tensors = List.copyOf(tensors);
        }

        /** Floats of all tensors together: the length of the flattened adapter. */
        public long totalFloats() {
            long total = 0;
            for (Tensor t : tensors) {
                long n = 1;
                for (long d : t.shape()) {
                    n *= d;
                }
                total += n;
            }
            return total;
        }
    }

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
}
