package dev.toolcoach.cluster.node;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * Tries a port before Akka binds it, so that a taken port gives one clear line rather than a failed
 * actor system start with a stack trace in the log.
 */
final class PortCheck {

    private PortCheck() {
    }

    static void ensureFree(String host, int port, String what) {
        if (port == 0) {
            return; // the OS picks a free one
        }
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new NodeStartException("cannot resolve host '" + host + "' for the " + what);
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(address);
        } catch (BindException e) {
            throw new NodeStartException(what + " " + host + ":" + port + " is already in use");
        } catch (IOException e) {
            throw new NodeStartException("cannot bind the " + what + " " + host + ":" + port + ": " + e.getMessage());
        }
    }
}
