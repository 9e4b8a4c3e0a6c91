package dev.toolcoach.cluster.protocol;

/** Everything the learner's adapter publisher accepts (open: the publisher adds its local publish command). */
public interface AdapterPublisherCommand {
}
