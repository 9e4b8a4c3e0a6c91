package dev.toolcoach.cluster.protocol;

import java.util.Objects;

/**
 * One chunk of an adapter version with the adapter's layout. Every part carries the (small) layout so a
 * receiver can rebuild the adapter from whichever chunks it gets, whether from the broadcast or a catch-up.
 */
public record AdapterPart(AdapterLayout layout, WeightsChunk chunk) implements AdapterReceiverCommand, KryoSerializable {
    public AdapterPart {
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(chunk, "chunk");
        if (layout.totalFloats() != chunk.totalFloats()) {
            throw new IllegalArgumentException("layout holds " + layout.totalFloats() + " floats but chunk "
                    + chunk.index() + " of version " + chunk.version() + " belongs to an adapter of " + chunk.totalFloats());
        }
    }
}
