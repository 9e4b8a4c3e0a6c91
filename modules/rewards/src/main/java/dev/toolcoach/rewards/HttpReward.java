package dev.toolcoach.rewards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.Turn;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A reward served over HTTP, so it can be written in any language: each group is one {@code POST} of JSON to the
 * reward server, which answers one score per rollout, in order.
 *
 * <pre>{@code
 * request:  {"example": {"query_id", "query", "gold_answer", "gold_calls": [{name, arguments}], "metadata": {...}},
 *            "rollouts": [{"rollout_id", "final_answer",
 *                          "turns": [{"completion", "calls": [{name, arguments}],
 *                                     "results": [{name, status, text}]}]}]}
 *           (calls: those the model's reply asked for, as read in its action format; results: what the tools answered)
 * response: {"scores": [1.0, 0.0, ...]}       (200, application/json, one finite number per rollout)
 * }</pre>
 *
 * A call that fails, times out, answers another status, or answers anything but that many finite numbers fails the
 * group with the reason, which the learner drops and counts ({@link Reward#ofGroup}). The key, when the endpoint has
 * one, goes as {@code Authorization: Bearer}; a response is read up to {@value #MAX_RESPONSE_BYTES} bytes.
 */
public final class HttpReward implements GroupReward {

    static final int MAX_RESPONSE_BYTES = 1 << 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI url;
    private final String apiKey;
    private final Duration timeout;
    private final HttpClient client;

    /**
     * @param url     where groups are posted
     * @param apiKey  the bearer key of the endpoint the URL is under, empty for none
     * @param timeout how long one group's call may take
     */
    public HttpReward(URI url, String apiKey, Duration timeout) {
        this.url = Objects.requireNonNull(url, "url");
        this.apiKey = Objects.requireNonNull(apiKey, "apiKey");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.client = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    @Override
    public GroupOutcome score(List<Trace> group, RewardContext example) {
        HttpRequest.Builder request = HttpRequest.newBuilder(url).timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body(group, example).toString()));
        if (!apiKey.isEmpty()) request.header("Authorization", "Bearer " + apiKey);
        HttpResponse<InputStream> response;
        byte[] bytes;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = response.body()) {
                bytes = in.readNBytes(MAX_RESPONSE_BYTES + 1);
            }
        } catch (HttpTimeoutException e) {
            throw new IllegalStateException("reward server " + url + " did not answer within " + timeout.toMillis() + " ms");
        } catch (IOException e) {
            throw new IllegalStateException("reward server " + url + " cannot be reached: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while calling reward server " + url);
        }
        if (response.statusCode() != 200) {
            throw new IllegalStateException("reward server " + url + " answered HTTP " + response.statusCode());
        }
        if (bytes.length > MAX_RESPONSE_BYTES) {
            throw new IllegalStateException("reward server " + url + " answered more than " + MAX_RESPONSE_BYTES + " bytes");
        }
        return GroupOutcome.scored(scores(bytes, group.size()));
    }

    private List<Double> scores(byte[] bytes, int expected) {
        JsonNode scores;
        try {
            scores = JSON.readTree(bytes).path("scores");
        } catch (IOException e) {
            throw new IllegalStateException("reward server " + url + " answered no JSON object with \"scores\"");
        }
        if (!scores.isArray() || scores.size() != expected) {
            throw new IllegalStateException("reward server " + url + " answered no list of " + expected + " \"scores\"");
        }
        List<Double> out = new ArrayList<>(expected);
        for (JsonNode s : scores) {
            if (!s.isNumber() || !Double.isFinite(s.asDouble())) {
                throw new IllegalStateException("reward server " + url + " answered a score that is no finite number: " + s);
            }
            out.add(s.asDouble());
        }
        return out;
    }

    static ObjectNode body(List<Trace> group, RewardContext example) {
        ObjectNode body = JSON.createObjectNode();
        ObjectNode ex = body.putObject("example").put("query_id", example.queryId()).put("query", example.query())
                .put("gold_answer", example.goldAnswer());
        calls(ex.putArray("gold_calls"), example.goldCalls());
        ex.set("metadata", JSON.valueToTree(example.fields()));
        ArrayNode rollouts = body.putArray("rollouts");
        for (Trace trace : group) {
            ObjectNode rollout = rollouts.addObject().put("rollout_id", trace.rolloutId()).put("final_answer", trace.finalAnswer());
            ArrayNode turns = rollout.putArray("turns");
            for (Turn turn : trace.turns()) {
                ObjectNode t = turns.addObject().put("completion", turn.modelCompletion());
                calls(t.putArray("calls"), turn.parsedCompletion() == null ? List.of() : turn.parsedCompletion().toolCalls());
                List<ToolResult> results = turn.actionOutput() == null ? List.of() : turn.actionOutput();
                ArrayNode out = t.putArray("results");
                for (ToolResult r : results) out.addObject().put("name", r.call().name()).put("status", r.status().name()).put("text", r.text());
            }
        }
        return body;
    }

    private static void calls(ArrayNode into, List<ToolCall> calls) {
        for (ToolCall c : calls) into.addObject().put("name", c.name()).set("arguments", JSON.valueToTree(c.arguments()));
    }
}
