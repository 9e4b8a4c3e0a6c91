package dev.toolcoach.retrieval.llm;

import java.util.List;

/**
 * What a tool-selection reply said.
 *
 * @param names   candidate names chosen, in the reply's order, each once
 * @param unknown names the reply gave that are not among the candidates (ignored, reported)
 * @param form    how the names were found
 */
public record ParsedReply(List<String> names, List<String> unknown, ReplyForm form) {
    public ParsedReply {
        names = List.copyOf(names);
        unknown = List.copyOf(unknown);
    }

    /**
     * Usable when it is a JSON list naming at least one candidate, an empty JSON list (the model
     * judged no tool relevant), or free text naming a candidate.
     */
    public boolean usable() {
        return switch (form) {
            case JSON_LIST -> !names.isEmpty() || unknown.isEmpty();
            case FREE_TEXT -> !names.isEmpty();
            case NONE -> false;
        };
    }
}
