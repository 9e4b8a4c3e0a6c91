package dev.toolcoach.cluster.protocol;

/**
 * Marker for bulk numeric messages (weight chunks, token arrays) that cross nodes through the Kryo
 * serializer; every class reachable from such a message must be registered in
 * {@link dev.toolcoach.cluster.serialization.KryoRegistrations}.
 */
public interface KryoSerializable {
}
