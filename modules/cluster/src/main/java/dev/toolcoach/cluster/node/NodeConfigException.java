package dev.toolcoach.cluster.node;

/** The node's configuration is unusable; the message names the setting and the problem in one line. */
public final class NodeConfigException extends RuntimeException {
    public NodeConfigException(String message) {
        super(message);
    }
}
