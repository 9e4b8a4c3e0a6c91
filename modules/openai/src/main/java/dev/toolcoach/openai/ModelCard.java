package dev.toolcoach.openai;

import com.fasterxml.jackson.annotation.JsonProperty;

/** One entry of {@code /v1/models}. */
public record ModelCard(String id, String object, long created, @JsonProperty("owned_by") String ownedBy) {
}
