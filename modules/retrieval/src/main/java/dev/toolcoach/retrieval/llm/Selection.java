package dev.toolcoach.retrieval.llm;

import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.retrieval.ScoredTool;

import java.util.ArrayList;
import java.util.List;

/** The outcome of asking the model which candidates are relevant. */
public sealed interface Selection {

    /**
     * The model chose these candidates, best first (possibly none: it judged none relevant).
     *
     * @param unknownNames names in the reply that are not candidates, ignored
     */
    record Chosen(List<ToolSpec> tools, ReplyForm form, List<String> unknownNames) implements Selection {
        public Chosen {
            tools = List.copyOf(tools);
            unknownNames = List.copyOf(unknownNames);
        }

        /** The chosen tools scored by their rank in the model's answer: 1, 1/2, 1/3, ... */
        public List<ScoredTool> scored() {
            List<ScoredTool> out = new ArrayList<>();
            for (int i = 0; i < tools.size(); i++) out.add(new ScoredTool(tools.get(i), 1.0 / (i + 1)));
            return out;
        }
    }

    /** The reply named no candidate in any readable way; {@code reply} is its start, for the message. */
    record Unusable(String reason, String reply) implements Selection {
    }

    /** The model could not be asked (unreachable, refused, timed out, no choices). */
    record Failed(String reason) implements Selection {
    }
}
