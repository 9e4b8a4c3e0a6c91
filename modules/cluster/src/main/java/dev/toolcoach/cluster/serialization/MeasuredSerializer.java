package dev.toolcoach.cluster.serialization;

/** A serializer that can tell a message's size on the wire without counting it as sent ({@link FrameBudget}). */
public interface MeasuredSerializer {

    /** The bytes {@code toBinary} would write for the message. */
    int serializedSize(Object message);
}
