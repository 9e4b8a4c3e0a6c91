package dev.toolcoach.policy;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.agent.ChatFormat;
import dev.toolcoach.agent.ConversationTemplate;
import dev.toolcoach.chat.TemplateInput;
import dev.toolcoach.trace.Message;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The agent's incremental {@link ChatFormat} over a model's whole-conversation template (ChatML,
 * Llama 3 or the folder's Jinja template).
 *
 * <p>The pieces the agent appends (one message, the generation prefix, the end of a reply) are cut
 * out of whole renderings of a fixed probe conversation, so they are exactly what the model's own
 * template writes. The end-of-turn marker also names the stop token: when it starts with a special
 * token (ChatML's {@code <|im_end|>}, Llama 3's {@code <|eot_id|>}) generation stops on that token
 * and {@link #closeReply(boolean) closeReply(true)} returns only what follows it.
 *
 * <p>For a native action format it also hands the agent the {@link #template() template itself}: whole
 * conversations with the tools as OpenAI function schemas, the assistant's {@code tool_calls} and the
 * {@code tool} role, exactly as Transformers' {@code apply_chat_template} receives them.
 */
public final class PolicyChatFormat implements ChatFormat {

    private static final List<Message> PROBE = List.of(Message.system("S"), Message.user("U"));
    private static final String PROBE_REPLY = "R";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> SCHEMA = new TypeReference<>() {
    };

    private final dev.toolcoach.chat.ChatTemplate template;
    private final String probeText;
    private final String generationPrefix;
    private final String endOfTurn;
    private final String afterStopToken;
    private final Set<Integer> stopTokenIds;
    /** Whether a reply renders as generation prefix + reply + end of turn, so pieces can be appended. */
    private final boolean appendsTurns;

    /**
     * @param specials    the tokenizer's special tokens
     * @param fallbackEos stop ids when the end-of-turn marker is plain text (e.g. a llama2.c model): the
     *                    model's EOS ids, after which nothing of the marker is appended
     * @throws IllegalArgumentException when the template's generation prompt does not extend the conversation, or no
     *                                  stop token can be found. A template that rewrites the reply (Qwen3 writes an
     *                                  empty thinking block into it) is taken, for native formats only: see
     *                                  {@link #appendsTurns()}
     */
    public PolicyChatFormat(dev.toolcoach.chat.ChatTemplate template, Map<String, Integer> specials,
                            Set<Integer> fallbackEos) {
        this.template = template;
        this.probeText = template.render(PROBE, false);
        this.generationPrefix = suffixAfter(probeText, template.render(PROBE, true), "the generation prompt");
        List<Message> replied = new ArrayList<>(PROBE);
        replied.add(Message.assistant(PROBE_REPLY));
        String repliedText = template.render(replied, false);
        int reply = repliedText.lastIndexOf(PROBE_REPLY);
        if (reply < 0) {
            throw new IllegalArgumentException("the chat template drops an assistant reply from the conversation");
        }
        this.endOfTurn = repliedText.substring(reply + PROBE_REPLY.length());
        this.appendsTurns = repliedText.equals(probeText + generationPrefix + PROBE_REPLY + endOfTurn);
        Optional<String> stopToken = specials.keySet().stream().filter(endOfTurn::startsWith)
                .max(Comparator.comparingInt(String::length));
        if (stopToken.isPresent()) {
            this.stopTokenIds = Set.of(specials.get(stopToken.get()));
            this.afterStopToken = endOfTurn.substring(stopToken.get().length());
        } else if (!fallbackEos.isEmpty()) {
            this.stopTokenIds = Set.copyOf(fallbackEos);
            this.afterStopToken = "";
        } else {
            throw new IllegalArgumentException("no stop token: the chat format ends a reply with '" + endOfTurn
                    + "', which starts with no special token, and the model names no EOS token");
        }
    }

    /**
     * Whether the template renders a reply as the generation prefix, the reply and its end of turn, so the agent may
     * append this format's pieces. When it does not, only native action formats run, through {@link #template()}.
     */
    @Override
    public boolean appendsTurns() {
        return appendsTurns;
    }

    /** The ids that end a reply. */
    public Set<Integer> stopTokenIds() {
        return stopTokenIds;
    }

    @Override
    public String renderMessage(Message message) {
        List<Message> extended = new ArrayList<>(PROBE);
        extended.add(asTemplateRole(message));
        return suffixAfter(probeText, template.render(extended, false), "a " + message.role() + " message");
    }

    @Override
    public String generationPrefix() {
        return generationPrefix;
    }

    @Override
    public String closeReply(boolean endedByStopToken) {
        return endedByStopToken ? afterStopToken : endOfTurn;
    }

    /** One user-side message of {@code <tool_response>} blocks, as Qwen and Tool-N1 lay them out. */
    @Override
    public Message toolResponses(List<String> outputs) {
        return Message.tool(outputs.stream()
                .map(o -> "<tool_response>\n" + o + "\n</tool_response>")
                .collect(Collectors.joining("\n")));
    }

    @Override
    public Optional<ConversationTemplate> template() {
        return Optional.of((messages, tools, addGenerationPrompt) -> template.render(new TemplateInput(messages,
                tools.stream().map(t -> JSON.convertValue(t.functionSchema(), SCHEMA)).toList(), addGenerationPrompt,
                Map.of())));
    }

    /** The whole first prompt through the model's own template (it may add a BOS marker or defaults). */
    @Override
    public String renderPrompt(List<Message> conversation) {
        return template.render(conversation.stream().map(PolicyChatFormat::asTemplateRole).toList(), true);
    }

    /**
     * Tool outputs wrapped in their blocks ({@link #toolResponses}) are user turns to a template; a result named
     * by its tool ({@code Message.toolResult}, as formats with results in the tool role send it) goes to the
     * template's own tool role.
     */
    private static Message asTemplateRole(Message m) {
        return m.role().equals("tool") && m.name() == null ? Message.user(m.content()) : m;
    }

    private static String suffixAfter(String prefix, String whole, String what) {
        if (!whole.startsWith(prefix)) {
            throw new IllegalArgumentException("the chat template does not render " + what
                    + " by appending to the conversation before it, so the agent cannot extend a context incrementally");
        }
        return whole.substring(prefix.length());
    }
}
