package dev.toolcoach.cluster.protocol;

/**
 * Marker for messages that cross nodes as Jackson CBOR (bound in the cluster module's
 * {@code reference.conf}). Small control messages use it; bulk numeric payloads use {@link KryoSerializable}.
 */
public interface CborSerializable {
}
