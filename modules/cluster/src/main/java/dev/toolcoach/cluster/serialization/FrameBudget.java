package dev.toolcoach.cluster.serialization;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Adapter;
import akka.serialization.Serialization;
import akka.serialization.SerializationExtension;
import akka.serialization.Serializer;
import dev.toolcoach.cluster.metrics.ToolCoachMetrics;

/**
 * Whether a message fits one Artery frame ({@code akka.remote.artery.advanced.maximum-frame-size}, less room for the
 * envelope: recipient, sender, manifest). Artery drops a larger message with a log line and the sender never learns,
 * so whoever sends something that can grow (a trace, a turn's tool results) asks here first and shrinks or refuses it;
 * each message found too large is counted on {@code toolcoach_messages_oversized_total}.
 */
public final class FrameBudget {

    /** Bytes of a frame kept for the envelope around the serialized message. */
    public static final int ENVELOPE_RESERVE = 8 * 1024;

    private final Serialization serialization;
    private final ToolCoachMetrics metrics;
    private final int maxBytes;

    private FrameBudget(Serialization serialization, ToolCoachMetrics metrics, int maxBytes) {
        this.serialization = serialization;
        this.metrics = metrics;
        this.maxBytes = maxBytes;
    }

    public static FrameBudget of(ActorSystem<?> system) {
        long frame = system.settings().config().getBytes("akka.remote.artery.advanced.maximum-frame-size");
        return new FrameBudget(SerializationExtension.get(Adapter.toClassic(system)), ToolCoachMetrics.get(system),
                (int) Math.max(1, frame - ENVELOPE_RESERVE));
    }

    /** The largest serialized message that fits. */
    public int maxBytes() {
        return maxBytes;
    }

    /** The message's serialized size, as the serializer bound to it writes it. */
    public int sizeOf(Object message) {
        Serializer serializer = serialization.findSerializerFor(message);
        return serializer instanceof MeasuredSerializer measured ? measured.serializedSize(message) : serializer.toBinary(message).length;
    }

    /** Whether the message fits a frame; one that does not is counted as oversized. */
    public boolean fits(Object message) {
        if (sizeOf(message) <= maxBytes) return true;
        metrics.wire().oversized(message.getClass());
        return false;
    }
}
