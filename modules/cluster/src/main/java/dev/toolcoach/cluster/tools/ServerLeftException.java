package dev.toolcoach.cluster.tools;

/** The server a request went to is no longer listed: it left the cluster or stopped before answering. */
final class ServerLeftException extends RuntimeException {
    ServerLeftException(String server) {
        super("tool server " + server + " left before answering");
    }
}
