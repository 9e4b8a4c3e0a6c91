package dev.toolcoach.cluster.job;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.FishingOutcomes;
import akka.actor.testkit.typed.javadsl.LoggingTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.receptionist.Receptionist;
import akka.cluster.typed.Cluster;
import akka.cluster.typed.Join;
import com.typesafe.config.ConfigFactory;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.RolloutSettings;
import dev.toolcoach.cluster.athlete.DeliverySettings;
import dev.toolcoach.cluster.discovery.ServiceKeys;
import dev.toolcoach.cluster.protocol.AthleteProtocol;
import dev.toolcoach.cluster.protocol.JobProtocol.JobSpec;
import dev.toolcoach.cluster.tools.ClusterToolSettings;
import dev.toolcoach.cluster.toolserver.ToolServerActor;
import dev.toolcoach.model.io.ModelDigest;
import dev.toolcoach.testkit.TinyChatModel;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.exec.ExecutorSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

class AthleteHostTest {

    /** A one-node cluster; loading a model takes seconds on a busy machine, so log expectations wait that long. */
    private static final ActorTestKit testKit = ActorTestKit.create(ConfigFactory.parseString(
            "akka.actor.testkit.typed.filter-leeway = 30s\n"
                    + "akka.actor.provider = cluster\n"
                    + "akka.remote.artery.canonical { hostname = \"127.0.0.1\", port = 0 }\n")
            .withFallback(ConfigFactory.load("application-test.conf")));

    @BeforeAll
    static void formCluster() {
        Cluster cluster = Cluster.get(testKit.system());
        cluster.manager().tell(Join.create(cluster.selfMember().address()));
    }

    @AfterAll
    static void stop() {
        testKit.shutdownTestKit();
    }

    /**
     * As in Kubernetes, where the model reaches an athlete's volume after the job was announced; and a volume that holds
     * another model at the job's path (other weights) is refused, never served, until the job's model is there.
     */
    @Test
    void anAthleteServesTheJobOnlyOnceTheJobsModelIsAtItsPath(@TempDir Path dir) throws Exception {
        Path model = dir.resolve("model");
        String digest = ModelDigest.of(TinyChatModel.write(dir.resolve("the-jobs"), 7));
        testKit.spawn(ToolServerActor.create(BuiltinSuites.open("arithmetic", BuiltinSuites.Options.defaults()),
                ExecutorSettings.defaults()));
        testKit.spawn(JobAnnouncer.create(new JobSpec("job-1", model.toAbsolutePath(), digest, ActionFormat.TOOL_N1, List.of("arithmetic"),
                new RolloutSettings(1.0, 16, 2, 256), 1, 0, Duration.ofSeconds(1), 1, Optional.empty())));
        TestProbe<Receptionist.Listing> listings = testKit.createTestProbe();
        testKit.system().receptionist().tell(Receptionist.subscribe(ServiceKeys.ATHLETES, listings.ref()));
        LoggingTestKit.error("cannot join job job-1").expect(testKit.system(), () ->
                testKit.spawn(AthleteHost.create(1, new ClusterToolSettings(Duration.ofSeconds(5), Duration.ofSeconds(5)),
                        DeliverySettings.defaults())));
        awaitAthleteNamed("idle", listings);

        // another model at the job's path: refused by its digest, its athletes stay idle
        LoggingTestKit.error("holds another model than the job's").expect(testKit.system(), () -> {
            try {
                return TinyChatModel.write(model, 8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });

        TinyChatModel.write(model, 7); // the job's model: the next attempt serves it
        awaitAthleteNamed("job", listings);
    }

    private static void awaitAthleteNamed(String prefix, TestProbe<Receptionist.Listing> listings) {
        listings.fishForMessage(Duration.ofSeconds(30), listing -> {
            Set<ActorRef<AthleteProtocol.Command>> athletes = listing.getServiceInstances(ServiceKeys.ATHLETES);
            boolean found = athletes.stream().anyMatch(a -> a.path().name().startsWith(prefix));
            return found ? FishingOutcomes.complete() : FishingOutcomes.continueAndIgnore();
        });
    }
}
