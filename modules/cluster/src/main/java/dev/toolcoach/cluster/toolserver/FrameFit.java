package dev.toolcoach.cluster.toolserver;

import dev.toolcoach.agent.OutputCap;
import dev.toolcoach.cluster.protocol.ToolServerProtocol.ToolCallResults;
import dev.toolcoach.cluster.serialization.FrameBudget;
import dev.toolcoach.trace.ToolResult;

import java.util.List;

/**
 * A turn's tool results made to fit one Artery frame: each call's output is already capped by the executor, but many
 * calls in one turn can still add up past the frame. Then every result is cut to an equal share of the frame; should
 * even that not fit (long error texts, many calls), each becomes an error the model reads instead of an answer Artery
 * would drop.
 */
final class FrameFit {

    /** Characters of a result per byte of its share: a character takes up to 3 bytes, text and structured output both. */
    private static final int BYTES_PER_SHARED_CHAR = 8;
    private static final int MIN_SHARE_CHARS = 256;

    private FrameFit() {
    }

    static ToolCallResults fit(ToolCallResults results, FrameBudget budget) {
        if (results.results().isEmpty() || budget.fits(results)) return results;
        int share = Math.max(MIN_SHARE_CHARS, budget.maxBytes() / (BYTES_PER_SHARED_CHAR * results.results().size()));
        OutputCap cap = new OutputCap(share);
        ToolCallResults shrunk = new ToolCallResults(results.trajectoryId(), results.results().stream().map(cap::apply).toList());
        if (budget.sizeOf(shrunk) <= budget.maxBytes()) return shrunk;
        List<ToolResult> refused = results.results().stream().map(r -> ToolResult.failed(r.call(), ToolResult.Status.ERROR,
                "the tool's output was too large to send back (more than the " + budget.maxBytes() + "-byte message frame)",
                r.latencyMillis())).toList();
        return new ToolCallResults(results.trajectoryId(), refused);
    }
}
