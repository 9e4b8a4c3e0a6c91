package dev.toolcoach.rewards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A reward served over HTTP, against a real server on loopback: the group goes out in the documented JSON with the
 * endpoint's key, the scores come back in order; a server that fails, is slow, or answers anything else drops the group
 * with the reason.
 */
class HttpRewardTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final RewardContext EXAMPLE = new RewardContext("q1", "What is 2+3?", "5",
            List.of(new ToolCall("add", Map.of("a", 2, "b", 3))), Map.of("level", 1));
    private static final List<Trace> GROUP = List.of(
            TraceBuilder.rollout("r1", "What is 2+3?").call("add them", "add", Map.of("a", 2, "b", 3), "5").answer("done", "5"),
            TraceBuilder.rollout("r2", "What is 2+3?").answer("guess", "6"));

    private HttpServer server;
    private final List<JsonNode> bodies = new ArrayList<>();
    private final List<String> keys = new ArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private volatile String reply;
    private volatile int status = 200;
    private volatile boolean slow;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(2));
        server.createContext("/score", exchange -> {
            synchronized (bodies) {
                bodies.add(JSON.readTree(exchange.getRequestBody()));
                keys.add(exchange.getRequestHeaders().getFirst("Authorization"));
            }
            if (slow) {
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] out = reply.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, out.length);
            try (OutputStream o = exchange.getResponseBody()) {
                o.write(out);
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.stop(0);
    }

    @Test
    void theGroupGoesOutInTheContractAndItsScoresComeBackInOrder() {
        reply = "{\"scores\": [1, 0.25]}";

        GroupOutcome outcome = reward("sk-reward").scoreGroup(GROUP, EXAMPLE);

        assertEquals(GroupOutcome.scored(List.of(1.0, 0.25)), outcome);
        JsonNode body = bodies.get(0);
        assertEquals("q1", body.at("/example/query_id").asText());
        assertEquals("5", body.at("/example/gold_answer").asText());
        assertEquals("add", body.at("/example/gold_calls/0/name").asText());
        assertEquals(3, body.at("/example/gold_calls/0/arguments/b").asInt());
        assertEquals(1, body.at("/example/metadata/level").asInt());
        assertEquals(List.of("r1", "r2"), List.of(body.at("/rollouts/0/rollout_id").asText(), body.at("/rollouts/1/rollout_id").asText()));
        assertEquals("5", body.at("/rollouts/0/final_answer").asText());
        assertEquals("add", body.at("/rollouts/0/turns/0/calls/0/name").asText());
        assertEquals("OK", body.at("/rollouts/0/turns/0/results/0/status").asText());
        assertEquals("Bearer sk-reward", keys.get(0));
    }

    @Test
    void noKeyIsSentWhereTheEndpointHasNone() {
        reply = "{\"scores\": [1, 1]}";
        reward("").scoreGroup(GROUP, EXAMPLE);
        assertEquals(null, keys.get(0));
    }

    @Test
    void aServerThatAnswersAnythingElseDropsTheGroupWithTheReason() {
        assertDropped("not json", 200, "answered no JSON object with \"scores\"");
        assertDropped("{\"scores\": [1]}", 200, "answered no list of 2 \"scores\"");
        assertDropped("{\"scores\": [1, \"NaN\"]}", 200, "answered a score that is no finite number: \"NaN\"");
        assertDropped("{\"scores\": [1, 1]}", 500, "answered HTTP 500");
    }

    @Test
    void aSlowServerDropsTheGroupAtTheTimeout() {
        reply = "{\"scores\": [1, 1]}";
        slow = true;
        GroupOutcome outcome = Reward.ofGroup("srv", new HttpReward(url(), "", Duration.ofMillis(300))).scoreGroup(GROUP, EXAMPLE);
        assertTrue(outcome instanceof GroupOutcome.Dropped d && d.reason().endsWith("did not answer within 300 ms"), outcome.toString());
    }

    @Test
    void anUnreachableServerDropsTheGroup() {
        URI closed = url();
        server.stop(0);
        GroupOutcome outcome = Reward.ofGroup("srv", new HttpReward(closed, "", Duration.ofSeconds(5))).scoreGroup(GROUP, EXAMPLE);
        assertTrue(outcome instanceof GroupOutcome.Dropped d && d.reason().contains("cannot be reached"), outcome.toString());
    }

    private void assertDropped(String answer, int code, String reason) {
        reply = answer;
        status = code;
        GroupOutcome outcome = reward("").scoreGroup(GROUP, EXAMPLE);
        assertTrue(outcome instanceof GroupOutcome.Dropped d && d.reason().startsWith("reward 'srv' failed on group of q1: reward server ")
                && d.reason().endsWith(reason), outcome.toString());
    }

    private Reward reward(String key) {
        return Reward.ofGroup("srv", new HttpReward(url(), key, Duration.ofSeconds(10)));
    }

    private URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/score");
    }
}
