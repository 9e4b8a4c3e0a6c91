package dev.toolcoach.bench.serialization;

import akka.actor.ExtendedActorSystem;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.Adapter;
import akka.actor.typed.javadsl.Behaviors;
import akka.serialization.Serialization$;
import akka.serialization.Serializer;
import akka.serialization.SerializerWithStringManifest;
import akka.serialization.Serializers;
import com.typesafe.config.ConfigFactory;
import dev.toolcoach.cluster.protocol.LearnerProtocol.TraceAck;
import dev.toolcoach.cluster.protocol.LearnerProtocol.TraceDelivery;
import dev.toolcoach.cluster.protocol.AdapterReceiverProtocol.WeightsChunk;
import dev.toolcoach.cluster.serialization.CountingCborSerializer;
import dev.toolcoach.cluster.serialization.KryoAkkaSerializer;
import dev.toolcoach.testkit.SampleMessages;
import dev.toolcoach.cluster.weights.AdapterChecksum;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.NotSerializableException;
import java.util.concurrent.TimeUnit;

/**
 * Kryo against Jackson CBOR, both as the Akka serializers the cluster uses, on the two bulk messages:
 * a 4 MiB float tensor ({@link WeightsChunk} of 1 Mi floats) and a 4,000-token trace ({@link TraceDelivery}).
 * The serialized size of each pair is printed at setup.
 *
 * <pre>java -jar modules/bench/target/benchmarks.jar SerializerBenchmark -f 1 -wi 3 -i 5</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class SerializerBenchmark {

    private static final int TENSOR_FLOATS = 1 << 20; // 4 MiB of float32

    @Param({"kryo", "cbor"})
    public String serializer;

    @Param({"tensor-4MiB", "trace-4000-tokens"})
    public String message;

    private ActorSystem<Void> system;
    private ExtendedActorSystem classic;
    private Serializer chosen;
    private Object payload;
    private String manifest;
    private byte[] bytes;

    @Setup(Level.Trial)
    public void setUp() {
        // the Kryo-bound messages are not bound to Jackson, so Jackson must be told it may write them
        system = ActorSystem.create(Behaviors.empty(), "bench", ConfigFactory.parseString(
                "akka.loglevel = WARNING\n"
                        + "akka.serialization.jackson.allowed-class-prefix = [\"dev.toolcoach.cluster.protocol.\"]")
                .withFallback(ConfigFactory.defaultReference()));
        classic = (ExtendedActorSystem) Adapter.toClassic(system);
        chosen = switch (serializer) {
            case "kryo" -> new KryoAkkaSerializer(classic);
            case "cbor" -> new CountingCborSerializer(classic);
            default -> throw new IllegalArgumentException("unknown serializer " + serializer);
        };
        payload = switch (message) {
            case "tensor-4MiB" -> {
                float[] tensor = SampleMessages.adapter(TENSOR_FLOATS, 42);
                yield new WeightsChunk(1, 0, 1, 0, TENSOR_FLOATS, AdapterChecksum.of(tensor), tensor);
            }
            case "trace-4000-tokens" -> new TraceDelivery(SampleMessages.trace("r-1", 4000, 42),
                    system.systemActorOf(Behaviors.<TraceAck>ignore(), "acks", Props.empty()));
            default -> throw new IllegalArgumentException("unknown message " + message);
        };
        manifest = Serializers.manifestFor(chosen, payload);
        bytes = serialize();
        if (!payload.equals(deserialize(bytes))) {
            throw new IllegalStateException(serializer + " does not round-trip " + message);
        }
        System.out.printf("%n[size] %s %s: %d bytes%n", serializer, message, bytes.length);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        system.terminate();
    }

    /** Akka sets this transport information around every remote (de)serialization; ActorRef fields need it. */
    private byte[] serialize() {
        return Serialization$.MODULE$.withTransportInformation(classic, () -> chosen.toBinary(payload));
    }

    private Object deserialize(byte[] data) {
        return Serialization$.MODULE$.withTransportInformation(classic, () -> {
            try {
                return chosen instanceof SerializerWithStringManifest withManifest
                        ? withManifest.fromBinary(data, manifest)
                        : chosen.fromBinary(data);
            } catch (NotSerializableException e) {
                throw new IllegalStateException(serializer + " cannot read " + message, e);
            }
        });
    }

    @Benchmark
    public byte[] toBytes() {
        return serialize();
    }

    @Benchmark
    public Object fromBytes() {
        return deserialize(bytes);
    }
}
