package dev.toolcoach.cluster.weights;

import ai.djl.ndarray.NDManager;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.pubsub.Topic;
import akka.cluster.MemberStatus;
import akka.cluster.typed.Cluster;
import akka.cluster.typed.Join;
import akka.serialization.SerializationExtension;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.toolcoach.cluster.learner.IdTokenizer;
import dev.toolcoach.cluster.protocol.AdapterReceiverProtocol.AdapterPart;
import dev.toolcoach.cluster.protocol.AdapterPublisherProtocol;
import dev.toolcoach.cluster.protocol.AdapterReceiverProtocol;
import dev.toolcoach.model.OpThreads;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.engine.InferenceEngine;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.model.nn.ModelWeights;
import dev.toolcoach.model.nn.Transformer;
import dev.toolcoach.testkit.TestAdapters;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.StreamSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A learner node and two engine nodes on loopback (Artery, serialize-messages on): adapters of about 4 MiB
 * published on the learner reach real inference engines on the other nodes, late receivers catch up, older
 * versions are ignored.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AdapterBroadcastTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);
    /** Long enough that the broadcast test can only pass through the topic, not through the periodic catch-up. */
    private static final Duration CATCH_UP_INTERVAL = Duration.ofSeconds(60);
    /** 256-wide, 4 layers, rank 64 on every projection: 1,114,112 adapter floats (4.25 MiB). */
    private static final ModelConfig MODEL = ModelConfig.llama(256, 512, 4, 4, 4, 16, 32);
    private static final LoraConfig LORA = new LoraConfig(64, 128f, 0f, Set.copyOf(LoraConfig.ALL_TARGETS));

    private final List<ActorSystem<Void>> systems = new ArrayList<>();
    private final List<InferenceEngine> engines = new ArrayList<>();
    private NDManager manager;
    private ActorSystem<Void> learner;
    private ActorRef<AdapterPublisherProtocol.Command> publisher;
    private ActorRef<Topic.Command<AdapterPart>> statsTopic;
    private InferenceEngine engineA;
    private InferenceEngine engineB;

    @BeforeAll
    void start() {
        OpThreads.setIntraOp(1);
        manager = NDManager.newBaseManager();
        learner = startNode();
        ActorSystem<Void> nodeA = startNode();
        ActorSystem<Void> nodeB = startNode();
        awaitUntil("three members up", () -> systems.stream().allMatch(s -> upMembers(s) == 3));
        publisher = learner.systemActorOf(AdapterPublisher.create(WeightsChunker.DEFAULT_MAX_CHUNK_BYTES),
                "adapter-publisher", Props.empty());
        engineA = newEngine(1);
        engineB = newEngine(2);
        nodeA.systemActorOf(AdapterReceiver.create(engineA::setAdapter, CATCH_UP_INTERVAL), "adapter-receiver", Props.empty());
        nodeB.systemActorOf(AdapterReceiver.create(engineB::setAdapter, CATCH_UP_INTERVAL), "adapter-receiver", Props.empty());
        // the learner's topic must know both engine nodes before a broadcast can reach them (a topic instance is
        // listed only while it has subscribers: the two receivers')
        statsTopic = learner.systemActorOf(AdapterTopic.behavior(), "stats-topic", Props.empty());
        awaitUntil("topic instances on every node", () -> topicInstances() == 2);
    }

    @AfterAll
    void stop() {
        systems.forEach(ActorSystem::terminate);
        systems.forEach(s -> s.getWhenTerminated().toCompletableFuture().join());
        engines.forEach(InferenceEngine::close);
        manager.close();
    }

    @Test
    @Order(1)
    void publishedAdapterReachesEnginesOnOtherNodes() {
        AdapterWeights v1 = randomAdapter(1, 11);
        reportWireBytes(v1);
        publisher.tell(new AdapterPublisher.Publish(v1));
        awaitUntil("both engines on version 1", () -> engineA.adapterVersion() == 1 && engineB.adapterVersion() == 1);
    }

    @Test
    @Order(2)
    void lateReceiverCatchesUpWithTheLatestVersion() {
        List<AdapterWeights> applied = new CopyOnWriteArrayList<>();
        systems.get(1).systemActorOf(AdapterReceiver.create(applied::add, CATCH_UP_INTERVAL), "late-receiver", Props.empty());
        awaitUntil("late receiver applied version 1", () -> !applied.isEmpty());
        TestAdapters.assertSame(randomAdapter(1, 11), applied.get(0));
    }

    @Test
    @Order(3)
    void olderVersionArrivingAfterANewerOneIsIgnored() {
        List<Integer> applied = new CopyOnWriteArrayList<>();
        ActorRef<AdapterReceiverProtocol.Command> receiver = systems.get(2).systemActorOf(
                AdapterReceiver.create(w -> applied.add(w.version()), CATCH_UP_INTERVAL), "ordering-receiver", Props.empty());
        awaitUntil("receiver caught up to version 1", () -> applied.contains(1));
        AdapterPublication offline = new AdapterPublication(WeightsChunker.DEFAULT_MAX_CHUNK_BYTES);
        List<AdapterPart> v2 = offline.publish(randomAdapter(2, 12));
        List<AdapterPart> v3 = offline.publish(randomAdapter(3, 13));
        v3.forEach(receiver::tell);
        v2.forEach(receiver::tell); // older, after the newer: must not be applied
        List<AdapterPart> v4 = offline.publish(randomAdapter(4, 14));
        v4.forEach(receiver::tell); // one sender, so v2 was handled before v4 completes
        awaitUntil("version 4 applied", () -> applied.contains(4));
        assertEquals(List.of(1, 3, 4), applied);
    }

    private ActorSystem<Void> startNode() {
        Config config = ConfigFactory.parseString("""
                akka.actor.provider = cluster
                akka.remote.artery.canonical.hostname = "127.0.0.1"
                akka.remote.artery.canonical.port = 0
                """).withFallback(ConfigFactory.parseResources("application-test.conf")).withFallback(ConfigFactory.load());
        ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "weights", config);
        systems.add(system);
        Cluster cluster = Cluster.get(system);
        cluster.manager().tell(Join.create(Cluster.get(systems.get(0)).selfMember().address()));
        return system;
    }

    private static long upMembers(ActorSystem<?> system) {
        return StreamSupport.stream(Cluster.get(system).state().getMembers().spliterator(), false)
                .filter(m -> m.status() == MemberStatus.up()).count();
    }

    private int topicInstances() {
        TestProbe<Topic.TopicStats> probe = TestProbe.create(learner);
        statsTopic.tell(Topic.getTopicStats(probe.ref()));
        return probe.receiveMessage().topicInstanceCount();
    }

    private InferenceEngine newEngine(long seed) {
        Transformer model = Transformer.create(MODEL, ModelWeights.randomHf(MODEL, seed), manager);
        InferenceEngine engine = new InferenceEngine(model, new IdTokenizer(MODEL.vocabSize()), 1);
        engines.add(engine);
        return engine;
    }

    private static AdapterWeights randomAdapter(int version, long seed) {
        return TestAdapters.random(MODEL, LORA, version, seed);
    }

    /** Prints what one version costs on the wire (each part as the Kryo serializer writes it) against its raw floats. */
    private void reportWireBytes(AdapterWeights weights) {
        List<AdapterPart> parts = new AdapterPublication(WeightsChunker.DEFAULT_MAX_CHUNK_BYTES).publish(weights);
        long raw = weights.tensors().values().stream().mapToLong(t -> (long) t.data().length * Float.BYTES).sum();
        long wire = 0;
        long largest = 0;
        for (AdapterPart part : parts) {
            int size = SerializationExtension.get(learner.classicSystem()).serialize(part).get().length;
            wire += size;
            largest = Math.max(largest, size);
        }
        System.out.printf("weights broadcast: raw tensor bytes %d, wire bytes per engine %d (%.4fx) in %d parts, largest %d%n",
                raw, wire, (double) wire / raw, parts.size(), largest);
        assertTrue(largest < 256 * 1024, "every part must fit Artery's 256 KiB frame, largest is " + largest);
    }

    private static void awaitUntil(String what, BooleanSupplier condition) {
        long end = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out after " + DEADLINE + " waiting for " + what);
            }
            LockSupport.parkNanos(20_000_000); // polling with a deadline, not waiting for the condition by time
        }
    }
}
