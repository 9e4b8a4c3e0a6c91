package dev.toolcoach.cluster.protocol;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.javadsl.Adapter;
import akka.serialization.Serialization;
import akka.serialization.SerializationExtension;
import akka.serialization.Serializer;
import akka.serialization.Serializers;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.RolloutSettings;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.cluster.protocol.JobProtocol.AdaptSpec;
import dev.toolcoach.cluster.protocol.AthleteProtocol.AssignRollout;
import dev.toolcoach.cluster.protocol.CoachProtocol.CoachCursor;
import dev.toolcoach.cluster.protocol.LearnerProtocol.DropGivenUpGroup;
import dev.toolcoach.cluster.protocol.CoachProtocol.GetCursor;
import dev.toolcoach.cluster.protocol.CoachProtocol.GetProgress;
import dev.toolcoach.cluster.protocol.CoachProtocol.GroupDropped;
import dev.toolcoach.cluster.protocol.CoachProtocol.GroupTrained;
import dev.toolcoach.cluster.protocol.JobProtocol.JobSpec;
import dev.toolcoach.cluster.protocol.CoachProtocol.LearnerStarted;
import dev.toolcoach.cluster.protocol.CoachProtocol.CoachProgress;
import dev.toolcoach.cluster.protocol.CoachProtocol.RequestRollouts;
import dev.toolcoach.cluster.protocol.CoachProtocol.RolloutReceived;
import dev.toolcoach.cluster.serialization.CountingCborSerializer;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.tasks.OracleStep;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.ToolCall;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.NotSerializableException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every coach message through the CBOR serializer and back, equal in every field. */
class CoachProtocolSerializationTest {

    private static final ActorTestKit testKit = ActorTestKit.create();
    private static final Serialization serialization = SerializationExtension.get(Adapter.toClassic(testKit.system()));

    @AfterAll
    static void shutdown() {
        testKit.shutdownTestKit();
    }

    private static <T> T roundTrip(T message) throws NotSerializableException {
        Serializer serializer = serialization.findSerializerFor(message);
        assertEquals(CountingCborSerializer.IDENTIFIER, serializer.identifier(), message.getClass().getSimpleName() + " travels as CBOR");
        byte[] bytes = serialization.serialize(message).get();
        @SuppressWarnings("unchecked")
        T back = (T) serialization.deserialize(bytes, serializer.identifier(), Serializers.manifestFor(serializer, message)).get();
        assertEquals(message, back);
        return back;
    }

    @Test
    void athleteAndCoachMessagesRoundTrip() throws NotSerializableException {
        TestProbe<AthleteProtocol.Command> athlete = testKit.createTestProbe();
        roundTrip(new RequestRollouts(athlete.ref(), 3));

        Map<String, Object> gold = new LinkedHashMap<>();
        gold.put("answer", 1628.89);
        gold.put("tools", List.of("future_value"));
        gold.put("turns", 2);
        TaskExample example = new TaskExample("finance-7", List.of(Message.system("be brief"),
                Message.user("What is the future value of 1000 at 5% for 10 years?")),
                List.of(ToolSpec.of("future_value", "Future value of a sum.", """
                        {"type":"object","properties":{"pv":{"type":"number"},"rate":{"type":"number"},"years":{"type":"integer"}},"required":["pv","rate","years"]}""")),
                "1628.89", List.of(OracleStep.call("compound it", new ToolCall("future_value", Map.of("pv", 1000, "rate", 0.05, "years", 10))),
                        OracleStep.answer("done", "1628.89")), gold);
        AssignRollout assign = roundTrip(new AssignRollout("g12/3", "g12", example, 4));
        assertEquals("finance-7", assign.queryId());
        assertInstanceOf(List.class, assign.example().gold().get("tools"), "JSON arrays come back as Java lists");
        assertEquals(2, assign.example().gold().get("turns"), "numbers keep their type");
        assertEquals(10, assign.example().solution().get(0).calls().get(0).arguments().get("years"));
        assertTrue(serialization.serialize(assign).get().length < 2_000, "an example is far below Artery's 256 KiB frame");
    }

    @Test
    void learnerReportsRoundTrip() throws NotSerializableException {
        roundTrip(new RolloutReceived("g12/3"));
        roundTrip(new GroupTrained("g12", 5));
        for (GroupDropped.Reason reason : GroupDropped.Reason.values()) roundTrip(new GroupDropped("g12", reason));
        TestProbe<LearnerProtocol.Command> learner = testKit.createTestProbe();
        roundTrip(new LearnerStarted(learner.ref()));
        roundTrip(new DropGivenUpGroup("g12"));
    }

    @Test
    void queriesAndTheirAnswersRoundTrip() throws NotSerializableException {
        TestProbe<CoachProgress> progressReplies = testKit.createTestProbe();
        roundTrip(new GetProgress(progressReplies.ref()));
        roundTrip(new CoachProgress(12, 10, 8, GroupCounts.of(Map.of(GroupDropped.Reason.STALE_POLICY, 1L)), 3, 48, 2, 40, 0, 6, 1, 1, 1, 3, 2, 8, false));

        TestProbe<CoachCursor> cursorReplies = testKit.createTestProbe();
        roundTrip(new GetCursor(cursorReplies.ref()));
        CoachCursor cursor = roundTrip(new CoachCursor(3, 2, 17, List.of(new CoachCursor.OpenGroup("g15", 1, "q1"),
                new CoachCursor.OpenGroup("g16", 2, "q2")), 8, 12, 12, GroupCounts.of(Map.of(GroupDropped.Reason.REWARD_FAILED, 2L))));
        assertEquals(0L, cursor.groupsDropped().get(GroupDropped.Reason.STALE_POLICY), "every reason is listed");
    }

    @Test
    void theJobSpecRoundTripsAndItsSamplingIsDerivedOnTheAthleteNotSent() throws NotSerializableException {
        JobSpec spec = roundTrip(new JobSpec("job-1", Path.of("/models/m"), "ab12", ActionFormat.TOOL_N1, List.of("arithmetic"),
                new RolloutSettings(0.7, 256, 5, 4096), 2, 0, Duration.ofSeconds(30), 11, Optional.empty()));
        assertEquals(Path.of("/models/m"), spec.modelDir(), "the model folder travels as a path");
        assertEquals(Duration.ofSeconds(30), spec.gateTimeout());
        assertEquals(new SamplingParams(0.7f, 0, 1f, 256, 11), spec.agent().sampling(), "the whole distribution at the job's temperature");
        assertEquals(new AgentConfig(ActionFormat.TOOL_N1, spec.agent().sampling(), 5, 4096, AgentConfig.TOOL_TIMEOUT,
                AgentConfig.TOOL_OUTPUT_CAP), spec.agent(), "the job's limits, the default tool settings");
        String bytes = new String(serialization.serialize(spec).get(), StandardCharsets.ISO_8859_1);
        assertTrue(bytes.contains("maxNewTokens"));
        assertFalse(bytes.contains("sampling"), "only the record's components travel");
        assertFalse(bytes.contains("toolTimeout"), "the agent's config is derived, not sent");
        assertEquals(Optional.empty(), spec.adapt(), "ADAPT is off unless asked for");
        for (boolean hint : new boolean[]{false, true}) {
            AdaptSpec adapt = new AdaptSpec("task:finance", List.of(List.of("npv", "npv_v2")), hint);
            assertEquals(Optional.of(adapt), roundTrip(new JobSpec("job-1", Path.of("/models/m"), "ab12", ActionFormat.TOOL_N1, List.of("finance"),
                    new RolloutSettings(0.7, 256, 5, 4096), 2, 0, Duration.ofSeconds(30), 11, Optional.of(adapt))).adapt());
        }
    }

    @Test
    void malformedMessagesAreRefusedWhereTheyAreMade() {
        TestProbe<AthleteProtocol.Command> athlete = testKit.createTestProbe();
        assertThrows(IllegalArgumentException.class, () -> new RequestRollouts(athlete.ref(), 0));
        assertThrows(NullPointerException.class, () -> new GroupDropped("g1", null));
    }
}
