package dev.toolcoach.openai;

import java.util.List;

/** The reply of {@code /v1/models}. */
public record ModelList(String object, List<ModelCard> data) {
    public ModelList {
        data = data == null ? List.of() : List.copyOf(data);
    }
}
