package dev.toolcoach.cluster.serialization;

import akka.actor.ExtendedActorSystem;
import akka.serialization.jackson.JacksonObjectMapperProvider;
import akka.serialization.jackson.JacksonSerializer;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import dev.toolcoach.cluster.metrics.ToolCoachMetrics;
import dev.toolcoach.cluster.metrics.WireMetrics;

import java.util.Optional;

/**
 * Akka's Jackson CBOR serializer for {@link dev.toolcoach.cluster.protocol.CborSerializable} messages,
 * counting every message and byte by kind so {@code /metrics} can show what crosses the wire.
 * Being a {@link JacksonSerializer} itself, it passes Jackson's check that a class is bound to Jackson.
 */
public final class CountingCborSerializer extends JacksonSerializer implements MeasuredSerializer {

    /** Binding name; its id is fixed in reference.conf under akka.actor.serialization-identifiers. */
    public static final String BINDING = "toolcoach-cbor";
    /** Fixed serializer id on the wire; must never change once nodes talk to each other. */
    public static final int IDENTIFIER = 7_300_002;

    private final ExtendedActorSystem system;
    private volatile WireMetrics wire;

    public CountingCborSerializer(ExtendedActorSystem system) {
        super(system, BINDING, JacksonObjectMapperProvider.get(system).getOrCreate(BINDING, Optional.of(new CBORFactory())));
        this.system = system;
    }

    @Override
    public byte[] toBinary(Object message) {
        byte[] bytes = super.toBinary(message);
        wire().sent(message.getClass(), bytes.length);
        return bytes;
    }

    @Override
    public int serializedSize(Object message) {
        return super.toBinary(message).length;
    }

    @Override
    public Object fromBinary(byte[] bytes, String manifest) {
        Object message = super.fromBinary(bytes, manifest);
        wire().received(message.getClass(), bytes.length);
        return message;
    }

    private WireMetrics wire() {
        if (wire == null) {
            wire = ToolCoachMetrics.get(system).wire();
        }
        return wire;
    }
}
