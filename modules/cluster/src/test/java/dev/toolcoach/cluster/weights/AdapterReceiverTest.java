package dev.toolcoach.cluster.weights;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.FishingOutcomes;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.receptionist.Receptionist;
import com.typesafe.config.ConfigFactory;
import dev.toolcoach.cluster.protocol.AdapterReceiverProtocol.AdapterPart;
import dev.toolcoach.cluster.protocol.AdapterPublisherProtocol;
import dev.toolcoach.cluster.protocol.AdapterPublisherProtocol.RequestLatestAdapter;
import dev.toolcoach.cluster.protocol.AdapterReceiverProtocol.WeightsChunk;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.testkit.TestAdapters;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The receiver's catch-up rules, with a probe standing in for the publisher's side of the conversation. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdapterReceiverTest {

    private static final ModelConfig MODEL = ModelConfig.llama(32, 64, 1, 4, 2, 16, 32);
    private static final LoraConfig LORA = new LoraConfig(2, 4f, 0f, Set.of("q_proj", "v_proj"));
    /** 256-byte chunks cut the 224-float adapter into four parts. */
    private static final int CHUNK_BYTES = 256;

    private ActorTestKit kit;
    private TestProbe<AdapterPublisherProtocol.Command> publisher;

    @BeforeAll
    void start() {
        kit = ActorTestKit.create(ConfigFactory.parseResources("application-test.conf").withFallback(ConfigFactory.load()));
        publisher = kit.createTestProbe(AdapterPublisherProtocol.Command.class);
        kit.system().receptionist().tell(Receptionist.register(AdapterPublisher.SERVICE_KEY, publisher.ref()));
    }

    @AfterAll
    void stop() {
        kit.shutdownTestKit();
    }

    @Test
    void corruptChunkSetIsDiscardedAndRequestedAgain() {
        List<Integer> applied = new CopyOnWriteArrayList<>();
        kit.spawn(AdapterReceiver.create(w -> applied.add(w.version()), Duration.ofMinutes(1)));
        RequestLatestAdapter hello = publisher.expectMessageClass(RequestLatestAdapter.class);
        assertEquals(-1, hello.sinceVersion(), "a new receiver asks for whatever is latest");

        List<AdapterPart> parts = parts(1, 21);
        assertTrue(parts.size() > 1, "the test needs several chunks, got " + parts.size());
        hello.replyTo().tell(tampered(parts.get(0)));
        parts.subList(1, parts.size()).forEach(hello.replyTo()::tell);
        RequestLatestAdapter again = publisher.expectMessageClass(RequestLatestAdapter.class);
        assertEquals(-1, again.sinceVersion(), "the corrupt version was not applied");

        parts.forEach(again.replyTo()::tell);
        awaitApplied(List.of(1), applied);
    }

    @Test
    void stalledAssemblyAsksForTheLatestAdapter() {
        List<Integer> applied = new CopyOnWriteArrayList<>();
        kit.spawn(AdapterReceiver.create(w -> applied.add(w.version()), Duration.ofMillis(200)));
        RequestLatestAdapter hello = publisher.expectMessageClass(RequestLatestAdapter.class);
        List<AdapterPart> parts = parts(2, 22);
        parts.subList(1, parts.size()).forEach(hello.replyTo()::tell); // chunk 0 is lost
        RequestLatestAdapter again = publisher.expectMessageClass(RequestLatestAdapter.class, Duration.ofSeconds(5));
        assertEquals(-1, again.sinceVersion());
        assertTrue(applied.isEmpty(), "nothing complete yet, got " + applied);

        parts.forEach(again.replyTo()::tell); // the resend completes the version; duplicates are ignored
        awaitApplied(List.of(2), applied);
        // once idle, the periodic check asks from the applied version on
        publisher.fishForMessage(Duration.ofSeconds(5), m -> m instanceof RequestLatestAdapter r && r.sinceVersion() == 2
                ? FishingOutcomes.complete() : FishingOutcomes.continueAndIgnore());
    }

    private void awaitApplied(List<Integer> expected, List<Integer> applied) {
        publisher.awaitAssert(() -> {
            assertEquals(expected, applied);
            return null;
        });
    }

    private static List<AdapterPart> parts(int version, long seed) {
        AdapterWeights weights = TestAdapters.random(MODEL, LORA, version, seed);
        return new AdapterPublication(CHUNK_BYTES).publish(weights);
    }

    private static AdapterPart tampered(AdapterPart part) {
        WeightsChunk c = part.chunk();
        float[] payload = c.payload().clone();
        payload[0] += 1f;
        return new AdapterPart(part.layout(),
                new WeightsChunk(c.version(), c.index(), c.count(), c.offset(), c.totalFloats(), c.checksum(), payload));
    }
}
