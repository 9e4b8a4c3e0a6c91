package dev.toolcoach.cluster.serialization;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.javadsl.Adapter;
import akka.serialization.Serialization;
import akka.serialization.SerializationExtension;
import akka.serialization.Serializer;
import akka.serialization.Serializers;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.cluster.protocol.AthleteProtocol.AssignRollout;
import dev.toolcoach.cluster.protocol.CborSerializable;
import dev.toolcoach.cluster.protocol.EchoProtocol.Echo;
import dev.toolcoach.cluster.protocol.EchoProtocol.EchoReply;
import dev.toolcoach.cluster.protocol.ToolServerProtocol.ExecuteToolCalls;
import dev.toolcoach.cluster.protocol.ToolServerProtocol.GetToolSpecs;
import dev.toolcoach.cluster.protocol.KryoSerializable;
import dev.toolcoach.cluster.protocol.ToolServerProtocol.ReleaseTrajectory;
import dev.toolcoach.cluster.protocol.ToolServerProtocol.ToolCallResults;
import dev.toolcoach.cluster.protocol.ToolServerProtocol.ToolSpecs;
import dev.toolcoach.cluster.protocol.LearnerProtocol.TraceAck;
import dev.toolcoach.cluster.protocol.LearnerProtocol.TraceDelivery;
import dev.toolcoach.cluster.protocol.AdapterReceiverProtocol.WeightsChunk;
import dev.toolcoach.testkit.SampleMessages;
import dev.toolcoach.cluster.weights.WeightsChunker;
import dev.toolcoach.tasks.OracleStep;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.NotSerializableException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every protocol message through the serializer Akka picks for it, and back. */
class ProtocolSerializationTest {

    private static final ActorTestKit testKit = ActorTestKit.create();
    private static final Serialization serialization = SerializationExtension.get(Adapter.toClassic(testKit.system()));

    @AfterAll
    static void shutdown() {
        testKit.shutdownTestKit();
    }

    private static Object roundTrip(Object message, int expectedSerializer) throws NotSerializableException {
        Serializer serializer = serialization.findSerializerFor(message);
        assertEquals(expectedSerializer, serializer.identifier(), "serializer bound to " + message.getClass().getSimpleName());
        byte[] bytes = serialization.serialize(message).get(); // sets the transport information ActorRefs need
        return serialization.deserialize(bytes, serializer.identifier(), Serializers.manifestFor(serializer, message)).get();
    }

    @Test
    void controlMessagesTravelAsCbor() throws NotSerializableException {
        TestProbe<EchoReply> replies = testKit.createTestProbe();
        Echo echo = new Echo("ping-1", replies.ref());
        assertEquals(echo, roundTrip(echo, CountingCborSerializer.IDENTIFIER));
        EchoReply reply = new EchoReply("ping-1", "akka://ToolCoach@127.0.0.1:25520/user/athlete-1");
        assertEquals(reply, roundTrip(reply, CountingCborSerializer.IDENTIFIER));
        assertEquals(new TraceAck("r-1"), roundTrip(new TraceAck("r-1"), CountingCborSerializer.IDENTIFIER));
    }

    @Test
    void weightChunksTravelAsKryoAndReassemble() throws NotSerializableException {
        List<WeightsChunk> chunks = new WeightsChunker(WeightsChunker.DEFAULT_MAX_CHUNK_BYTES)
                .split(3, SampleMessages.adapter(100_000, 11));
        assertEquals(3, chunks.size());
        for (WeightsChunk chunk : chunks) {
            assertEquals(chunk, roundTrip(chunk, KryoAkkaSerializer.IDENTIFIER));
            assertTrue(serialization.serialize(chunk).get().length < 256 * 1024, "chunk fits Artery's frame");
        }
    }

    @Test
    void traceDeliveryKeepsEveryFieldThroughKryo() throws NotSerializableException {
        TestProbe<TraceAck> acks = testKit.createTestProbe();
        TraceDelivery delivery = new TraceDelivery(SampleMessages.trace("r-7", 4000, 5), acks.ref());
        TraceDelivery back = assertInstanceOf(TraceDelivery.class, roundTrip(delivery, KryoAkkaSerializer.IDENTIFIER));
        assertEquals(delivery.trace(), back.trace());
        assertEquals(delivery.replyTo(), back.replyTo());
        assertEquals(12, back.trace().turns().get(0).actionOutput().get(0).call().arguments().get("a"), "stays an Integer");
        back.replyTo().tell(new TraceAck("r-7"));
        assertEquals("r-7", acks.receiveMessage().rolloutId());
    }

    /** The coach's assignment carries the typed example, a function-calling one with its own tool catalog too. */
    @Test
    void anAssignedExampleTravelsTypedAsCborWellBelowTheFrame() throws NotSerializableException {
        List<ToolSpec> catalog = IntStream.range(0, 40).mapToObj(i -> ToolSpec.of("tool_" + i, "Looks up thing " + i + ".", """
                {"type":"object","properties":{"id":{"type":"string","description":"which thing"},"limit":{"type":"integer"}},"required":["id"]}""")).toList();
        TaskExample example = new TaskExample("bfcl-12", List.of(Message.user("Look up thing 3, at most 5.")), catalog,
                "[tool_3(id='3', limit=5)]", List.of(OracleStep.call("look it up", new ToolCall("tool_3", Map.of("id", "3", "limit", 5)))),
                Map.of("calls", List.of(Map.of("tool_3", Map.of("id", List.of("3"))))));
        AssignRollout assign = new AssignRollout("g2/0", "g2", example, 3);
        AssignRollout back = assertInstanceOf(AssignRollout.class, roundTrip(assign, CountingCborSerializer.IDENTIFIER));
        assertEquals(assign, back);
        assertEquals(List.of("id"), back.example().tools().get(3).required());
        assertTrue(serialization.serialize(assign).get().length < 64 * 1024, "a 40-tool example is far below Artery's 256 KiB frame");
    }

    /** A CBOR message carrying JSON-shaped values, as the tool protocol will. */
    record CarriesToolCall(ToolCall call) implements CborSerializable {
    }

    @Test
    void untypedJsonValuesComeBackAsJavaCollections() throws NotSerializableException {
        ToolCall call = SampleMessages.trace("r-2", 100, 3).toolCalls().get(0);
        CarriesToolCall back = assertInstanceOf(CarriesToolCall.class,
                roundTrip(new CarriesToolCall(call), CountingCborSerializer.IDENTIFIER));
        assertEquals(call, back.call());
        assertInstanceOf(java.util.List.class, back.call().arguments().get("tags"), "not a Scala list");
    }

    @Test
    void toolMessagesTravelAsCborWithEveryField() throws NotSerializableException {
        TestProbe<ToolCallResults> results = testKit.createTestProbe();
        ToolCall call = SampleMessages.trace("r-3", 100, 4).toolCalls().get(0);
        ExecuteToolCalls execute = new ExecuteToolCalls("r-3", List.of(call, new ToolCall("divide", Map.of("a", 1, "b", 0))),
                results.ref());
        assertEquals(execute, roundTrip(execute, CountingCborSerializer.IDENTIFIER));

        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("future_value", 1628.89);
        structured.put("hits", List.of(Map.of("message_id", "m-1"), Map.of("message_id", "m-2")));
        ToolCallResults answer = new ToolCallResults("r-3", List.of(
                new ToolResult(call, ToolResult.Status.OK, "1628.89", structured, null, 12, true, 7),
                ToolResult.failed(execute.calls().get(1), ToolResult.Status.ERROR, "division by zero", 3)));
        assertEquals(answer, roundTrip(answer, CountingCborSerializer.IDENTIFIER));

        ToolSpecs specs = new ToolSpecs("arithmetic", List.of(ToolSpec.of("add", "Adds.",
                "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"number\"}},\"required\":[\"a\"]}")));
        ToolSpecs specsBack = assertInstanceOf(ToolSpecs.class, roundTrip(specs, CountingCborSerializer.IDENTIFIER));
        assertEquals(specs.specs().get(0).toJson(), specsBack.specs().get(0).toJson());
        TestProbe<ToolSpecs> specReplies = testKit.createTestProbe();
        assertEquals(new GetToolSpecs(specReplies.ref()), roundTrip(new GetToolSpecs(specReplies.ref()), CountingCborSerializer.IDENTIFIER));
        assertEquals(new ReleaseTrajectory("r-3"), roundTrip(new ReleaseTrajectory("r-3"), CountingCborSerializer.IDENTIFIER));
    }

    /** A Kryo-bound message that nobody registered. */
    record Unregistered(int[] values) implements KryoSerializable {
    }

    @Test
    void kryoRefusesUnregisteredClasses() {
        Serializer kryo = serialization.findSerializerFor(new Unregistered(new int[]{1}));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> kryo.toBinary(new Unregistered(new int[]{1})));
        assertTrue(e.getMessage().contains("not registered"), e.getMessage());
    }
}
