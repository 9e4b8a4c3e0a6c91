package dev.toolcoach.cluster.coach;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.cluster.typed.Cluster;
import akka.cluster.typed.Join;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.toolcoach.cluster.protocol.AthleteProtocol.AssignRollout;
import dev.toolcoach.cluster.protocol.AthleteProtocol;
import dev.toolcoach.cluster.protocol.CoachProtocol;
import dev.toolcoach.cluster.protocol.CoachProtocol.GetProgress;
import dev.toolcoach.cluster.protocol.CoachProtocol.CoachProgress;
import dev.toolcoach.cluster.protocol.CoachProtocol.RequestRollouts;
import dev.toolcoach.cluster.testing.Plans;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The coach as a cluster singleton on a one-node cluster with role coach, reached through its proxy. */
class CoachSingletonTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Config CLUSTER = ConfigFactory.parseString("""
            akka.actor.provider = cluster
            akka.remote.artery.canonical.hostname = 127.0.0.1
            akka.remote.artery.canonical.port = 0
            akka.cluster.roles = ["coach"]
            """).withFallback(ConfigFactory.parseResources("application-test.conf")).withFallback(ConfigFactory.load());
    private static final ActorTestKit testKit = ActorTestKit.create("CoachSingletonTest", CLUSTER);

    @AfterAll
    static void shutdown() {
        testKit.shutdownTestKit();
    }

    @Test
    void theProxyReachesTheCoachOnTheCoachNode() {
        Cluster cluster = Cluster.get(testKit.system());
        cluster.manager().tell(Join.create(cluster.selfMember().address()));
        CoachSettings settings = Plans.coach(Plans.plan(2, 1, 0, 1), Duration.ofMinutes(1));
        ActorRef<CoachProtocol.Command> coach = CoachSingleton.init(testKit.system(), "job-1",
                CoachActor.create(settings, TrainingQueries.of(1), Optional.empty(), Clock.systemUTC(), Duration.ofSeconds(1)));

        TestProbe<AthleteProtocol.Command> athlete = testKit.createTestProbe();
        coach.tell(new RequestRollouts(athlete.ref(), 1));
        assertEquals("g0/0", athlete.expectMessageClass(AssignRollout.class, WAIT).rolloutId());
        TestProbe<CoachProgress> progress = testKit.createTestProbe();
        coach.tell(new GetProgress(progress.ref()));
        assertEquals(1, progress.receiveMessage(WAIT).rolloutsInFlight());
    }
}
