package dev.toolcoach.coachnode;

import dev.toolcoach.brain.endpoint.ModelEndpoint;
import dev.toolcoach.brain.taskjob.ToolChoice;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The agent's catalogue beyond its suite and tool retrieval over it, shared by {@code train} and {@code eval} (a picocli mixin). */
final class ToolChoiceOptions {

    @Option(names = "--tool-retrieval", description = "per query, offer only the tools chosen by: lexical (BM25), llm or hybrid "
            + "(BM25 shortlist, then a model picks; both ask --retrieval-url or --retrieval-model); default: every tool")
    String mode;

    @Option(names = "--retrieval-k", description = "tools offered per query with --tool-retrieval (default: " + ToolChoice.DEFAULT_K + ")")
    Integer k;

    @Option(names = "--retrieval-url", description = "the llm/hybrid selector: an OpenAI-compatible API root (key: $OPENAI_API_KEY)")
    String url;

    @Option(names = "--retrieval-model", description = "the llm/hybrid selector: the model id at --retrieval-url, or without it a "
            + "local Hugging Face model folder served on 127.0.0.1 while the job runs")
    String model;

    @Option(names = "--distractor-suites", split = ",", description = "built-in suites whose tools join the catalogue (served nowhere: "
            + "calling one is an error the agent sees), e.g. arithmetic,sql")
    List<String> suites = new ArrayList<>();

    @Option(names = "--distractor-schemas", split = ",", description = "BFCL question files whose function schemas join the catalogue, "
            + "e.g. ../shared/data/bfcl/BFCL_v3_simple.json")
    List<Path> schemas = new ArrayList<>();

    ToolChoice choice() {
        ModelEndpoint endpoint = url == null && model == null ? null : new ModelEndpoint(url, model);
        return new ToolChoice(mode, k, suites, schemas.stream().map(p -> p.toAbsolutePath().toString()).toList(), endpoint);
    }
}
