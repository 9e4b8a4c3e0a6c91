package dev.toolcoach.cluster.weights;

import akka.actor.typed.Behavior;
import akka.actor.typed.pubsub.Topic;
import dev.toolcoach.cluster.protocol.AdapterReceiverProtocol.AdapterPart;

/** The cluster-wide topic adapter parts are broadcast on; publisher and receivers each spawn a local instance. */
final class AdapterTopic {

    static final String NAME = "toolcoach-adapter";

    private AdapterTopic() {
    }

    static Behavior<Topic.Command<AdapterPart>> behavior() {
        return Topic.create(AdapterPart.class, NAME);
    }
}
