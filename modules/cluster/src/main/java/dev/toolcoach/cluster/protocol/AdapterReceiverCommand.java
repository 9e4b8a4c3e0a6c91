package dev.toolcoach.cluster.protocol;

/** Everything an inference engine's adapter receiver accepts (open: the receiver adds private timer messages). */
public interface AdapterReceiverCommand {
}
