package dev.toolcoach.model;

import dev.toolcoach.chat.JinjaChatTemplate;
import java.util.Optional;
import java.util.Set;

/**
 * What a model folder says beyond its weights.
 *
 * @param eosTokenIds  from generation_config.json / config.json (empty when unknown)
 * @param bosTokenId   -1 when unknown
 * @param chatTemplate the folder's own Jinja chat template (with its special tokens), when it has one
 */
public record ModelSource(Set<Integer> eosTokenIds, int bosTokenId, Optional<JinjaChatTemplate> chatTemplate,
                          Optional<Float> temperature, Optional<Float> topP, Optional<Integer> topK) {
    public ModelSource {
        eosTokenIds = Set.copyOf(eosTokenIds);
    }

    public static ModelSource none() {
        return new ModelSource(Set.of(), -1, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }
}
