package dev.toolcoach.brain.taskjob;

import dev.toolcoach.model.ComputeDevice;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import com.typesafe.config.ConfigFactory;
import dev.toolcoach.brain.endpoint.ModelEndpoint;
import dev.toolcoach.brain.endpoint.OutboundEndpoints;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.openai.ChatMessage;
import dev.toolcoach.openai.ChatRequest;
import dev.toolcoach.trace.UntrustedJson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code POST /jobs} bodies an attacker sends: each refused where it enters, naming the field; and what a job's helper
 * models are sent. A loopback listener stands in for the attacker's server and records what reaches it.
 */
class JobSpecAdversarialTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    private HttpServer listener;
    /** The Authorization header of every request the listener got ("" when none). */
    private final List<String> authorizations = new CopyOnWriteArrayList<>();

    @BeforeEach
    void listen() throws Exception {
        listener = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        listener.createContext("/", exchange -> {
            authorizations.add(Optional.ofNullable(exchange.getRequestHeaders().getFirst("Authorization")).orElse(""));
            byte[] reply = """
                    {"id": "c", "object": "chat.completion", "created": 0, "model": "judge",
                     "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "ok"}}]}"""
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, reply.length);
            exchange.getResponseBody().write(reply);
            exchange.close();
        });
        listener.start();
    }

    @AfterEach
    void stop() {
        listener.stop(0);
    }

    private String listenerUrl() {
        return "http://127.0.0.1:" + listener.getAddress().getPort() + "/v1";
    }

    @Test
    void aJudgeOrSelectorUrlTheNodeDoesNotListIsRefusedNamingTheField() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        String judge = "{\"task\": \"finance\", \"judge\": {\"endpoint\": {\"url\": \"" + listenerUrl() + "\", \"model\": \"j\"}}}";
        String selector = "{\"task\": \"finance\", \"tool_retrieval\": {\"mode\": \"llm\", \"model\": {\"url\": \"" + listenerUrl() + "\"}}}";
        OutboundEndpoints elsewhere = OutboundEndpoints.named(List.of("http://127.0.0.1:1/v1", "https://api.example.com/v1"), "sk-node");
        for (OutboundEndpoints allowed : List.of(OutboundEndpoints.none(), elsewhere)) {
            assertEquals("judge.endpoint.url is not an endpoint this node may call (its toolcoach.jobs.endpoints lists those it may)",
                    refusal(judge, data, allowed));
            assertTrue(refusal(selector, data, allowed).startsWith("tool_retrieval.model.url is not an endpoint"));
        }
        OutboundEndpoints listed = OutboundEndpoints.named(List.of(listenerUrl()), "");
        TaskTrainingJob.validate(TrainingJobSpec.fromNetwork(judge, dir.resolve("runs"), data, Path.of("models")).toBuilder().endpoints(listed).build());
        for (String smuggled : List.of("http://user:pw@127.0.0.1:" + listener.getAddress().getPort() + "/v1",
                listenerUrl() + "?next=http://evil.example", listenerUrl() + "/../../admin", "file:///etc/passwd", "not a url")) {
            String body = "{\"task\": \"finance\", \"judge\": {\"endpoint\": {\"url\": \"" + smuggled + "\"}}}";
            assertTrue(refusal(body, data, listed).startsWith("judge.endpoint.url "), smuggled);
        }
        assertTrue(authorizations.isEmpty(), "nothing was sent anywhere");
    }

    private String refusal(String body, Path data, OutboundEndpoints allowed) throws Exception {
        TrainingJobSpec options = TrainingJobSpec.fromNetwork(body, dir.resolve("runs"), data, Path.of("models")).toBuilder()
                .endpoints(allowed).build();
        return assertThrows(IllegalArgumentException.class, () -> TaskTrainingJob.validate(options)).getMessage();
    }

    @Test
    void aCallCarriesTheKeyConfiguredForItsEndpointAndNoOther() {
        OutboundEndpoints configured = OutboundEndpoints.fromConfig(ConfigFactory.parseString(
                "endpoints = [{url = \"" + listenerUrl() + "\", api-key = k-judge}, {url = \"http://127.0.0.1:1/v2\", api-key = k-other}]"));
        ask(new ModelEndpoint(listenerUrl() + "/", "judge"), configured);
        OutboundEndpoints keyless = OutboundEndpoints.fromConfig(ConfigFactory.parseString("endpoints = [{url = \"" + listenerUrl() + "\"}]"));
        ask(new ModelEndpoint(listenerUrl(), "judge"), keyless);
        assertEquals(List.of("Bearer k-judge", ""), authorizations);
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> OutboundEndpoints.fromConfig(
                ConfigFactory.parseString("endpoints = [{api-key = k}]")));
        assertTrue(bad.getMessage().startsWith("toolcoach.jobs.endpoints[0] needs a url"), bad.getMessage());
    }

    private static void ask(ModelEndpoint endpoint, OutboundEndpoints allowed) {
        try (ModelEndpoint.Open open = endpoint.open(allowed, "judge.endpoint.url", ComputeDevice.cpu())) {
            open.client().chat(ChatRequest.of(List.of(ChatMessage.user("score these"))));
        }
    }

    @Test
    void aRecipeTemperatureThatIsNotAFiniteNumberIsRefusedNamingTheField() throws Exception {
        for (String bad : new String[] {"\"NaN\"", "\"Infinity\"", "-1", "1e400"}) {
            ObjectNode recipe = JSON.valueToTree(ScratchRecipe.defaults());
            recipe.set("temperature", JSON.readTree(bad));
            ObjectNode body = JSON.createObjectNode().put("task", "finance").set("recipe", recipe);
            JsonProcessingException e = assertThrows(JsonProcessingException.class,
                    () -> TrainingJobSpec.fromNetwork(JSON.writeValueAsString(body), dir.resolve("runs"), dir.resolve("data"), Path.of("models")), bad);
            assertTrue(UntrustedJson.reason(e).startsWith("recipe: recipe field temperature must be a finite number >= 0, was "),
                    bad + ": " + UntrustedJson.reason(e));
        }
    }

    @Test
    void aRecipeSizeOutOfRangeIsRefusedNamingTheFieldAndTheValueGiven() throws Exception {
        Map<String, String> refused = Map.of(
                "{\"groupSize\": -2, \"groupsPerStep\": 4}", "recipe field groupSize must be at least 1, was -2",
                "{\"groupSize\": 4, \"groupsPerStep\": -3}", "recipe field groupsPerStep must be at least 1, was -3",
                "{\"groupsPerStep\": 0}", "recipe field groupsPerStep must be at least 1, was 0",
                "{\"maxMerges\": -1}", "recipe field maxMerges must be at least 0, was -1",
                "{\"warmupTraces\": -5}", "recipe field warmupTraces must be at least 0, was -5");
        for (Map.Entry<String, String> c : refused.entrySet()) {
            String body = JSON.writeValueAsString(JSON.createObjectNode().put("task", "finance").set("recipe", JSON.readTree(c.getKey())));
            JsonProcessingException e = assertThrows(JsonProcessingException.class,
                    () -> TrainingJobSpec.fromNetwork(body, dir.resolve("runs"), dir.resolve("data"), Path.of("models")), c.getKey());
            assertEquals("recipe: " + c.getValue(), UntrustedJson.reason(e));
        }
        JsonProcessingException wrongType = assertThrows(JsonProcessingException.class, () -> TrainingJobSpec.fromNetwork(
                "{\"task\": \"finance\", \"recipe\": {\"groupSize\": \"many\"}}", dir.resolve("runs"), dir.resolve("data"), Path.of("models")));
        assertEquals("field recipe.groupSize is missing or has the wrong type", UntrustedJson.reason(wrongType));
        // what a partial recipe leaves out is the default recipe's
        TrainingJobSpec partial = TrainingJobSpec.fromNetwork("{\"task\": \"finance\", \"recipe\": {\"groupSize\": 4}}", dir.resolve("runs"),
                dir.resolve("data"), Path.of("models"));
        assertEquals(ScratchRecipe.defaults().grpo().groupsPerStep(), partial.recipe().grpo().groupsPerStep());
        assertEquals(4, partial.recipe().grpo().groupSize());
    }
}
