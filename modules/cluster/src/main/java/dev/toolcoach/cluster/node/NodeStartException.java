package dev.toolcoach.cluster.node;

/** The node could not start (a port is taken, the management server failed); the message says which. */
public final class NodeStartException extends RuntimeException {
    public NodeStartException(String message) {
        super(message);
    }
}
