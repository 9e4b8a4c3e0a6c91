/**
 * Serializers of the cross-node messages. Java serialization is off. Jackson's type id is the class name and Kryo's id
 * its position, so every node of a cluster runs the same build (the multi-JVM tests in coach-node and deploy cross real
 * JVMs with it).
 * <ul>
 *   <li>{@code CountingCborSerializer}: Akka's Jackson CBOR serializer ({@code toolcoach-cbor}, for messages
 *       implementing {@code CborSerializable}; typed {@code ActorRef}s through Akka's Jackson module), counting
 *       messages and bytes.</li>
 *   <li>{@code KryoAkkaSerializer} ({@code toolcoach-kryo}, for {@code KryoSerializable}): pooled Kryo 5, id 7300001,
 *       with registration required and references off, records through {@code RecordSerializer}, JDK immutable
 *       lists/maps read back as {@code ArrayList}/{@code LinkedHashMap} (the records copy them), typed
 *       {@code ActorRef}s as their serialization format.</li>
 *   <li>{@code KryoRegistrations}: the one list of classes with fixed ids. Ids are positional: append, never reorder.
 *       An unregistered class fails.</li>
 *   <li>{@code FrameBudget}: does a message fit one Artery frame, measured uncounted through {@code MeasuredSerializer}
 *       (less 8 KiB for the envelope).</li>
 * </ul>
 *
 * <p>Tests run with {@code akka.actor.serialize-messages = on} ({@code application-test.conf}), so every message
 * crosses a serializer even between local actors. Local-only messages ({@code ServiceRegistry.GetDirectory},
 * {@code ServiceDirectory}) are marked {@code NoSerializationVerificationNeeded}.
 *
 * <p><b>Serializer figures</b> (JMH {@code SerializerBenchmark}, 1 fork, 3×2 s warm-up, 5×2 s measurement, on a busy
 * 2-core machine, so the error bars are wide):
 * <table class="striped">
 * <caption>Size and speed per message and serializer</caption>
 * <tr><th>message</th><th>serializer</th><th>bytes</th><th>serialize ns/op</th><th>deserialize ns/op</th></tr>
 * <tr><td>4 MiB float tensor ({@code WeightsChunk})</td><td>Kryo</td><td>4,194,321</td><td>1.36 M</td><td>0.41
 *     M</td></tr>
 * <tr><td></td><td>CBOR</td><td>5,242,957</td><td>3.12 M</td><td>10.1 M</td></tr>
 * <tr><td>4,000-token trace ({@code TraceDelivery})</td><td>Kryo</td><td>35,488</td><td>72 k</td><td>46 k</td></tr>
 * <tr><td></td><td>CBOR</td><td>41,379</td><td>42 k</td><td>162 k</td></tr>
 * </table>
 *
 * <p>Kryo is smaller on both and much faster to read. Writing a trace is slower than CBOR because Kryo varint-encodes
 * int arrays element by element (which is also why the trace is small: most token ids, masks and versions fit in one or
 * two bytes); float arrays are copied in bulk.
 */
package dev.toolcoach.cluster.serialization;
