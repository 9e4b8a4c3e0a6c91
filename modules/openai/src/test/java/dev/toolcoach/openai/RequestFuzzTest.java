package dev.toolcoach.openai;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.agent.ActionFormat;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzing the server's request handling without HTTP: every body is either read and checked into a backend
 * request or refused with a {@link RejectedRequest} (a 400 or 404); nothing else escapes, however deep or
 * broken the JSON, and nested JSON strings such as {@code arguments} included. Tries: {@code jqwik.tries.default}.
 */
class RequestFuzzTest {

    private static final String SEED = "20261124";
    private static final String MODEL = "m";
    /** One server's request handling per action format: earlier assistant turns are written in the model's format. */
    private static final List<ChatCompletions> SERVERS = Arrays.stream(ActionFormat.values()).map(format ->
            new ChatCompletions(new ChatBackend() {
                @Override
                public String modelId() {
                    return MODEL;
                }

                @Override
                public ActionFormat actionFormat() {
                    return format;
                }

                @Override
                public BackendReply generate(BackendRequest request, Consumer<String> onText) {
                    throw new IllegalStateException("the fuzz test never generates");
                }
            }, Clock.systemUTC())).toList();

    @Property(seed = SEED)
    void everyBodyIsAcceptedOrRefusedWithAReason(@ForAll("bodies") String body) {
        for (ChatCompletions server : SERVERS) {
            try {
                BackendRequest accepted = server.validate(server.read(body));
                assertNotNull(accepted.messages());
                assertFalse(accepted.messages().isEmpty());
            } catch (RejectedRequest | IllegalArgumentException refused) {
                assertNotNull(refused.getMessage());
                assertFalse(refused.getMessage().isBlank());
                assertTrue(refused.getMessage().length() < 2_000, "a short reason, not the input: " + refused.getMessage().length());
            }
        }
    }

    @Provide
    Arbitrary<String> bodies() {
        return Arbitraries.oneOf(Arbitraries.strings().all().ofMaxLength(200), requests(), requests().flatMap(RequestFuzzTest::mutated));
    }

    /** Requests shaped like real ones, with fields of the wrong kind, unknown roles, and arguments of any text or depth. */
    private static Arbitrary<String> requests() {
        Arbitrary<String> role = Arbitraries.of("system", "user", "assistant", "tool", "robot", "");
        Arbitrary<String> text = Arbitraries.strings().all().ofMaxLength(40).injectNull(0.1);
        Arbitrary<String> arguments = Arbitraries.oneOf(Arbitraries.strings().all().ofMaxLength(40),
                Arbitraries.strings().withChars("{}[]\":,a1 ").ofMaxLength(60),
                Combinators.combine(Arbitraries.integers().between(1, 50_000), Arbitraries.of("[", "{\"a\":"))
                        .as((depth, open) -> open.repeat(depth)));
        Arbitrary<ObjectNode> message = Combinators.combine(role, text, arguments, Arbitraries.of(true, false))
                .as((r, content, args, calls) -> {
                    ObjectNode m = OpenAiJson.mapper().createObjectNode().put("role", r).put("content", content);
                    if (calls) {
                        m.putArray("tool_calls").addObject().put("id", "c").put("type", "function")
                                .putObject("function").put("name", "f").put("arguments", args);
                    }
                    return m;
                });
        Arbitrary<Object> odd = Arbitraries.oneOf(Arbitraries.just("x"), Arbitraries.just(-1), Arbitraries.just(3.5),
                Arbitraries.just(true), Arbitraries.just(List.of()));
        return Combinators.combine(message.list().ofMaxSize(4), Arbitraries.of(MODEL, "other").injectNull(0.5),
                        Arbitraries.doubles().between(-1, 3).injectNull(0.5), Arbitraries.integers().between(-5, 5000).injectNull(0.5),
                        Arbitraries.of(true, false).injectNull(0.5), odd.injectNull(0.7))
                .as((messages, model, temperature, maxTokens, stream, strange) -> {
                    ObjectNode body = OpenAiJson.mapper().createObjectNode();
                    ArrayNode list = body.putArray("messages");
                    messages.forEach(list::add);
                    if (model != null) body.put("model", model);
                    if (temperature != null) body.put("temperature", temperature);
                    if (maxTokens != null) body.put("max_tokens", maxTokens);
                    if (stream != null) body.put("stream", stream);
                    if (strange != null) body.set("tools", OpenAiJson.mapper().valueToTree(strange));
                    return body.toString();
                });
    }

    /** The text with a few characters changed, dropped or added: near-valid JSON that is broken in one place. */
    private static Arbitrary<String> mutated(String json) {
        return Arbitraries.integers().between(0, Math.max(0, json.length() - 1)).list().ofMinSize(1).ofMaxSize(4)
                .flatMap(positions -> Arbitraries.of("", "\"", "{", "]", ",", "\\", "\u0000", "9").list()
                        .ofSize(positions.size()).map(edits -> {
                            StringBuilder s = new StringBuilder(json);
                            for (int i = 0; i < positions.size(); i++) {
                                int at = Math.min(positions.get(i), s.length() - 1);
                                if (at >= 0) s.replace(at, at + 1, edits.get(i));
                            }
                            return s.toString();
                        }));
    }
}
