package dev.toolcoach.cluster.serialization;

import akka.actor.ExtendedActorSystem;
import akka.actor.typed.ActorRefResolver;
import akka.actor.typed.javadsl.Adapter;
import akka.serialization.JSerializer;
import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.unsafe.UnsafeInput;
import com.esotericsoftware.kryo.unsafe.UnsafeOutput;
import com.esotericsoftware.kryo.util.Pool;
import dev.toolcoach.cluster.metrics.ToolCoachMetrics;
import dev.toolcoach.cluster.metrics.WireMetrics;

/**
 * Akka serializer for {@link dev.toolcoach.cluster.protocol.KryoSerializable} messages: bulk numeric
 * payloads where Kryo's raw arrays beat CBOR. Kryo instances are not thread-safe, so they are pooled.
 * The unsafe streams copy primitive arrays in bulk (in the machine's byte order: little-endian on
 * x86-64 and aarch64, which every supported node runs on).
 */
public final class KryoAkkaSerializer extends JSerializer implements MeasuredSerializer {

    /** Fixed serializer id on the wire; must never change once nodes talk to each other. */
    public static final int IDENTIFIER = 7_300_001;

    private final ExtendedActorSystem system;
    private final Pool<Kryo> pool;
    private volatile WireMetrics wire;

    public KryoAkkaSerializer(ExtendedActorSystem system) {
        this.system = system;
        // created lazily: serializers are built while the actor system starts, before extensions are usable
        this.pool = new Pool<>(true, false, 32) {
            @Override
            protected Kryo create() {
                return KryoRegistrations.newKryo(ActorRefResolver.get(Adapter.toTyped(system)));
            }
        };
    }

    @Override
    public int identifier() {
        return IDENTIFIER;
    }

    @Override
    public boolean includeManifest() {
        return false; // Kryo writes its own registered class id
    }

    @Override
    public byte[] toBinary(Object message) {
        byte[] bytes = write(message);
        wire().sent(message.getClass(), bytes.length);
        return bytes;
    }

    @Override
    public int serializedSize(Object message) {
        return write(message).length;
    }

    private byte[] write(Object message) {
        Kryo kryo = pool.obtain();
        try {
            Output output = new UnsafeOutput(4096, -1);
            kryo.writeClassAndObject(output, message);
            return output.toBytes();
        } finally {
            pool.free(kryo);
        }
    }

    @Override
    public Object fromBinaryJava(byte[] bytes, Class<?> manifest) {
        Kryo kryo = pool.obtain();
        try {
            Object message = kryo.readClassAndObject(new UnsafeInput(bytes));
            wire().received(message.getClass(), bytes.length);
            return message;
        } finally {
            pool.free(kryo);
        }
    }

    private WireMetrics wire() {
        if (wire == null) {
            wire = ToolCoachMetrics.get(system).wire();
        }
        return wire;
    }
}
