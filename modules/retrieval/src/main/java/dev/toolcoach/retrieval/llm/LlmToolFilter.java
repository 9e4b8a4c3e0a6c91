package dev.toolcoach.retrieval.llm;

import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.openai.ChatRequest;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.openai.OpenAiException;
import dev.toolcoach.retrieval.ToolRetriever;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Asks a model, through an OpenAI-compatible endpoint, which of a few candidate tools a query
 * needs. Model trouble never escapes as an exception: a reply naming no candidate is
 * {@link Selection.Unusable}, a call that fails is {@link Selection.Failed}, and both are counted.
 *
 * <p>When several candidates share a name (same-named tools with different schemas), naming it
 * selects all of them, in candidate order: the model cannot tell them apart by name.
 */
public final class LlmToolFilter {

    private static final int REPLY_EXCERPT_CHARS = 200;

    private final OpenAiClient client;
    private final FilterSettings settings;
    private final SelectionPrompt prompt;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong jsonReplies = new AtomicLong();
    private final AtomicLong freeTextReplies = new AtomicLong();
    private final AtomicLong unusableReplies = new AtomicLong();
    private final AtomicLong failedCalls = new AtomicLong();
    private final AtomicLong unknownNames = new AtomicLong();

    public LlmToolFilter(OpenAiClient client, FilterSettings settings) {
        this.client = client;
        this.settings = settings;
        this.prompt = new SelectionPrompt(settings);
    }

    /** The at most {@code limit} candidates the model judges relevant to {@code query}, best first. */
    public Selection select(String query, List<ToolSpec> candidates, int limit) {
        ToolRetriever.checkK(limit);
        requests.incrementAndGet();
        String reply;
        try {
            reply = client.chat(ChatRequest.of(prompt.messages(query, candidates, limit))
                    .withTemperature(0).withMaxTokens(settings.maxReplyTokens())).text();
        } catch (OpenAiException e) {
            failedCalls.incrementAndGet();
            return new Selection.Failed("tool-selection model call failed: " + e.getMessage());
        }
        ParsedReply parsed = new ReplyParser(candidates.stream().map(ToolSpec::name).toList()).parse(reply);
        unknownNames.addAndGet(parsed.unknown().size());
        if (!parsed.usable()) {
            unusableReplies.incrementAndGet();
            String why = parsed.form() == ReplyForm.NONE ? "the reply names none of the " + candidates.size() + " candidates"
                    : "every name in the reply is unknown: " + parsed.unknown();
            return new Selection.Unusable(why, excerpt(reply));
        }
        (parsed.form() == ReplyForm.JSON_LIST ? jsonReplies : freeTextReplies).incrementAndGet();
        return new Selection.Chosen(chosen(parsed.names(), candidates, limit), parsed.form(), parsed.unknown());
    }

    public FilterStats stats() {
        return new FilterStats(requests.get(), jsonReplies.get(), freeTextReplies.get(), unusableReplies.get(),
                failedCalls.get(), unknownNames.get());
    }

    private static List<ToolSpec> chosen(List<String> names, List<ToolSpec> candidates, int limit) {
        List<ToolSpec> out = new ArrayList<>();
        for (String name : names) {
            for (ToolSpec c : candidates) {
                if (c.name().equals(name) && out.size() < limit) out.add(c);
            }
        }
        return out;
    }

    private static String excerpt(String reply) {
        String r = reply.strip();
        return r.length() <= REPLY_EXCERPT_CHARS ? r : r.substring(0, REPLY_EXCERPT_CHARS) + "...";
    }
}
