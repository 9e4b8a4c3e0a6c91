package dev.toolcoach.cluster.node;

import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Adapter;
import akka.cluster.Member;
import akka.cluster.MemberStatus;
import akka.cluster.typed.Cluster;
import akka.cluster.typed.Leave;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.toolcoach.cluster.discovery.ServiceDirectory;
import dev.toolcoach.cluster.discovery.ServiceRegistry;
import dev.toolcoach.cluster.protocol.AthleteProtocol;
import dev.toolcoach.cluster.protocol.EchoProtocol.Echo;
import dev.toolcoach.cluster.protocol.EchoProtocol.EchoReply;
import dev.toolcoach.cluster.protocol.ToolServerProtocol;
import dev.toolcoach.testkit.FreePorts;
import dev.toolcoach.cluster.testing.PrometheusSamples;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.StreamSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three real nodes (coach, athlete, tool) in one JVM on loopback, started by the node launcher with
 * management servers, talking through Artery and the project's serializers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ThreeNodeClusterTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final List<String> SUITES = List.of("arithmetic", "finance");

    private final HttpClient http = HttpClient.newHttpClient();
    private final List<ActorSystem<?>> systems = new ArrayList<>();
    private final List<Integer> managementPorts = new ArrayList<>();
    private ActorSystem<?> coach;
    private ActorSystem<?> athlete;
    private ActorSystem<?> tool;

    @BeforeAll
    void startNodes() {
        coach = start(NodeProgram.COACH, List.of());
        String seed = Cluster.get(coach).selfMember().address().toString();
        athlete = start(NodeProgram.ATHLETE, List.of(seed));
        tool = start(NodeProgram.TOOL, List.of(seed));
    }

    private ActorSystem<?> start(NodeProgram program, List<String> seeds) {
        int managementPort = FreePorts.pick();
        NodeOverrides overrides = new NodeOverrides(Optional.empty(), Optional.empty(), Optional.of("127.0.0.1"),
                Optional.of(0), Optional.of(seeds), Optional.of("127.0.0.1"), Optional.of(managementPort),
                Optional.of(2), Optional.of(SUITES));
        Config config = ConfigFactory.parseResources("application-test.conf")
                .withFallback(NodeConfigLoader.load(program, overrides, Map.of()));
        ActorSystem<?> system = NodeLauncher.start(config, NodeSettings.fromConfig(config));
        systems.add(system);
        managementPorts.add(managementPort);
        return system;
    }

    @AfterAll
    void stopNodes() {
        systems.forEach(ActorSystem::terminate);
        systems.forEach(s -> s.getWhenTerminated().toCompletableFuture().join());
    }

    private static Set<String> upRoles(ActorSystem<?> observer) {
        Set<String> roles = new HashSet<>();
        for (Member m : Cluster.get(observer).state().getMembers()) {
            if (m.status() == MemberStatus.up()) m.getRoles().stream().filter(r -> !r.startsWith("dc-")).forEach(roles::add);
        }
        return roles;
    }

    private HttpResponse<String> get(int port, String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError("GET " + path + " on port " + port + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private ServiceDirectory directory() {
        TestProbe<ServiceDirectory> probe = TestProbe.create(coach);
        ActorRef<ServiceRegistry.Command> registry = Adapter.toTyped(coach.classicSystem()
                .actorSelection("/user/service-registry").resolveOne(Duration.ofSeconds(3)).toCompletableFuture().join());
        registry.tell(new ServiceRegistry.GetDirectory(probe.ref()));
        return probe.receiveMessage();
    }

    @Test
    @Order(1)
    void allThreeNodesAreUpWithTheirRoles() {
        TestProbe<Void> probe = TestProbe.create(coach);
        for (ActorSystem<?> observer : systems) {
            probe.awaitAssert(DEADLINE, () -> {
                assertEquals(Set.of("coach", "learner", "athlete", "tool"), upRoles(observer));
                return null;
            });
        }
    }

    @Test
    @Order(2)
    void everyNodeReportsReadyOnItsManagementServer() {
        TestProbe<Void> probe = TestProbe.create(coach);
        for (int port : managementPorts) {
            probe.awaitAssert(DEADLINE, () -> {
                assertEquals(200, get(port, "/ready").statusCode(), "ready on " + port);
                return null;
            });
            assertEquals(200, get(port, "/alive").statusCode());
        }
        assertTrue(get(managementPorts.get(0), "/cluster/members").body().contains("\"athlete\""));
    }

    @Test
    @Order(3)
    void coachSeesAthletesAndToolSuitesRegister() {
        TestProbe<Void> probe = TestProbe.create(coach);
        probe.awaitAssert(DEADLINE, () -> {
            ServiceDirectory directory = directory();
            assertEquals(2, directory.athletes().size());
            SUITES.forEach(suite -> assertEquals(1, directory.toolServerCount(suite), suite));
            return null;
        });
    }

    @Test
    @Order(4)
    void echoRoundTripsAcrossNodesThroughTheSerializers() {
        ServiceDirectory directory = directory();
        TestProbe<EchoReply> replies = TestProbe.create(coach);
        for (ActorRef<AthleteProtocol.Command> athleteRef : directory.athletes()) {
            athleteRef.tell(new Echo("hello " + athleteRef.path().name(), replies.ref()));
            EchoReply reply = replies.receiveMessage(Duration.ofSeconds(5));
            assertEquals("hello " + athleteRef.path().name(), reply.payload());
            assertTrue(reply.responder().contains(Cluster.get(athlete).selfMember().address().hostPort()), reply.responder());
        }
        for (ActorRef<ToolServerProtocol.Command> server : directory.toolServers().get("finance")) {
            server.tell(new Echo("to tools", replies.ref()));
            assertTrue(replies.receiveMessage(Duration.ofSeconds(5)).responder().startsWith(
                    Cluster.get(tool).selfMember().address() + "/user/tools-finance"));
        }
    }

    @Test
    @Order(5)
    void metricsEndpointShowsMembersMessagesAndHeap() {
        HttpResponse<String> response = get(managementPorts.get(0), "/metrics");
        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"));
        Map<String, Double> samples = PrometheusSamples.parse(response.body());
        assertEquals(1.0, samples.get("toolcoach_cluster_members{role=\"athlete\",status=\"Up\"}"));
        assertEquals(1.0, samples.get("toolcoach_cluster_members{role=\"coach\",status=\"Up\"}"));
        assertEquals(1.0, samples.get("toolcoach_cluster_members{role=\"tool\",status=\"Up\"}"));
        assertTrue(samples.get("toolcoach_messages_total{direction=\"sent\",kind=\"Echo\"}") >= 3, response.body());
        assertTrue(samples.get("toolcoach_messages_total{direction=\"received\",kind=\"EchoReply\"}") >= 3);
        assertTrue(samples.get("toolcoach_message_bytes_total{direction=\"sent\",kind=\"Echo\"}") > 0);
        assertTrue(samples.get("jvm_memory_used_bytes{area=\"heap\"}") > 0);
    }

    @Test
    @Order(6)
    void aLeavingNodeIsSeenGoneByTheOthers() {
        Cluster.get(tool).manager().tell(Leave.create(Cluster.get(tool).selfMember().address()));
        tool.getWhenTerminated().toCompletableFuture().orTimeout(DEADLINE.toSeconds(), java.util.concurrent.TimeUnit.SECONDS).join();
        TestProbe<Void> probe = TestProbe.create(coach);
        for (ActorSystem<?> observer : List.of(coach, athlete)) {
            probe.awaitAssert(DEADLINE, () -> {
                assertEquals(Set.of("coach", "learner", "athlete"), upRoles(observer));
                assertEquals(2, StreamSupport.stream(Cluster.get(observer).state().getMembers().spliterator(), false).count());
                return null;
            });
        }
        probe.awaitAssert(DEADLINE, () -> {
            assertEquals(0, directory().toolServerCount("finance"));
            return null;
        });
    }
}
