package dev.toolcoach.tools.skills;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A composite tool crystallised from a recurring call sequence: its parameters, the steps it runs (each an existing
 * tool of {@code suite} with every argument taken from a parameter or an earlier step's result), and where it came from.
 * The composite's result is its last step's result.
 *
 * @param name        the tool name athletes call
 * @param description what it does, for the model
 * @param suite       the suite whose tools the steps call; the composite joins that suite
 * @param parameters  the composite's JSON schema (an object schema, as every tool's)
 * @param steps       the calls it makes, in order
 * @param status      pending (validated, waiting for a person's approval) or approved (registered on tool nodes)
 * @param provenance  how it was found
 */
public record SkillDefinition(String name, String description, String suite, JsonNode parameters, List<Step> steps,
                              Status status, Provenance provenance) {

    public enum Status { PENDING, APPROVED }

    /** One call of the composite: the tool and, per argument, its source. */
    public record Step(String tool, Map<String, ArgumentSource> arguments) {
        public Step {
            Objects.requireNonNull(tool, "tool");
            arguments = Collections.unmodifiableMap(new LinkedHashMap<>(arguments));
        }
    }

    /**
     * How a skill was found.
     *
     * @param source       the traces it was mined from (a file, or a description of the run)
     * @param trajectories the rollout ids of the trajectories it was seen in, in order
     * @param support      how many successful trajectories held the sequence
     * @param novelty      1 − the highest similarity of its tool sequence to a skill known when it was mined (1: new)
     * @param minLength    the miner's minimum sequence length
     * @param minSupport   the miner's minimum support
     * @param validated    how many of its trajectories its validation replayed, each reproduced
     * @param createdAt    when it was mined (ISO-8601 instant)
     */
    public record Provenance(String source, List<String> trajectories, int support, double novelty, int minLength,
                             int minSupport, int validated, String createdAt) {
        public Provenance {
            trajectories = List.copyOf(trajectories);
        }
    }

    public SkillDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(suite, "suite");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(provenance, "provenance");
        parameters = parameters.deepCopy();
        steps = List.copyOf(steps);
    }

    @Override
    public JsonNode parameters() {
        return parameters.deepCopy();
    }

    public List<String> tools() {
        return steps.stream().map(Step::tool).toList();
    }

    public SkillDefinition withStatus(Status newStatus) {
        return new SkillDefinition(name, description, suite, parameters, steps, newStatus, provenance);
    }

    public SkillDefinition withProvenance(Provenance newProvenance) {
        return new SkillDefinition(name, description, suite, parameters, steps, status, newProvenance);
    }
}
