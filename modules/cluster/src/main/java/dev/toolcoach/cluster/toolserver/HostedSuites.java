package dev.toolcoach.cluster.toolserver;

import dev.toolcoach.cluster.node.NodeStartException;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.email.MailSourceException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Opens the suites a tool node hosts before its actor system starts, so that a mailbox that cannot be
 * indexed stops the node with one line instead of leaving it up without the suite.
 */
public final class HostedSuites {

    private static final Logger LOG = LoggerFactory.getLogger(HostedSuites.class);

    private HostedSuites() {
    }

    /** Opens every configured suite; on failure closes those already open and throws {@link NodeStartException}. */
    public static List<BuiltinSuites.Hosted> open(ToolHostSettings settings) {
        List<BuiltinSuites.Hosted> opened = new ArrayList<>();
        for (String name : settings.suites()) {
            try {
                BuiltinSuites.Hosted hosted = BuiltinSuites.open(name, settings.options());
                opened.add(hosted);
                // a skill definition that cannot be used stops the node here, with its one line, not a failed actor later
                BuiltinSuites.withSkills(hosted.suite(), settings.options());
            } catch (MailSourceException | RuntimeException e) {
                closeAll(opened);
                throw new NodeStartException("cannot open tool suite '" + name + "': " + e.getMessage());
            }
        }
        return List.copyOf(opened);
    }

    /** Closes each suite's resources; a failure is logged and does not stop the others from closing. */
    public static void closeAll(List<BuiltinSuites.Hosted> hosted) {
        for (BuiltinSuites.Hosted suite : hosted) {
            close(suite);
        }
    }

    static void close(BuiltinSuites.Hosted suite) {
        try {
            suite.close();
        } catch (Exception e) {
            LOG.warn("tool suite '{}' did not close cleanly: {}", suite.suite().name(), e.toString());
        }
    }
}
