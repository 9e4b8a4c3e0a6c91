package dev.toolcoach.brain.taskjob;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.toolcoach.brain.endpoint.ModelEndpoint;
import dev.toolcoach.retrieval.offer.RetrievalMode;
import dev.toolcoach.retrieval.offer.ToolRetrievalSettings;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Which tools a job's agent is offered per query: the task's suite plus distractors, and tool retrieval over them
 * (the {@code train}/{@code eval} options {@code --tool-retrieval}, {@code --retrieval-k}, {@code --distractor-suites},
 * {@code --distractor-schemas}; the {@code tool_retrieval} field of {@code POST /jobs}).
 *
 * @param mode              lexical, llm or hybrid; null: every query is offered the whole catalogue
 * @param k                 tools per query (default 3)
 * @param distractorSuites  built-in suites whose specifications join the catalogue (served nowhere for this job)
 * @param distractorSchemas BFCL question files whose function schemas join the catalogue
 * @param model             the selecting model of the llm and hybrid modes
 */
@JsonIgnoreProperties(ignoreUnknown = false)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ToolChoice(String mode, Integer k, @JsonProperty("distractor_suites") List<String> distractorSuites,
                         @JsonProperty("distractor_schemas") List<String> distractorSchemas, ModelEndpoint model) {

    public static final int DEFAULT_K = 3;

    public ToolChoice {
        distractorSuites = distractorSuites == null ? List.of() : List.copyOf(distractorSuites);
        distractorSchemas = distractorSchemas == null ? List.of() : List.copyOf(distractorSchemas);
    }

    public static ToolChoice none() {
        return new ToolChoice(null, null, List.of(), List.of(), null);
    }

    /** @throws IllegalArgumentException naming a bad mode, k, or a mode without its model */
    public Optional<ToolRetrievalSettings> retrieval() {
        if (mode == null) {
            if (k != null) throw new IllegalArgumentException("tool retrieval k given without a retrieval mode");
            return Optional.empty();
        }
        ToolRetrievalSettings settings = ToolRetrievalSettings.of(RetrievalMode.parse(mode), k == null ? DEFAULT_K : k);
        if (settings.mode().needsModel() && model == null) {
            throw new IllegalArgumentException("tool retrieval '" + settings.mode().label() + "' asks a model: give --retrieval-url or --retrieval-model");
        }
        return Optional.of(settings);
    }

    /** The schema files, relative ones under {@code dataDir}. */
    public List<Path> schemaFiles(Path dataDir) {
        return distractorSchemas.stream().map(f -> Path.of(f).isAbsolute() ? Path.of(f) : dataDir.resolve(f)).toList();
    }
}
