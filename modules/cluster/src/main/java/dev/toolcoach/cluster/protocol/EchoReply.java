package dev.toolcoach.cluster.protocol;

/**
 * The answer to an {@link Echo}.
 *
 * @param payload   the echoed payload
 * @param responder the full address of the actor that answered (names its node)
 */
public record EchoReply(String payload, String responder) implements CborSerializable {
}
