package dev.toolcoach.retrieval.offer;

import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.retrieval.HybridRetriever;
import dev.toolcoach.retrieval.ToolCatalog;
import dev.toolcoach.retrieval.ToolRetriever;
import dev.toolcoach.retrieval.lexical.LexicalRetriever;
import dev.toolcoach.retrieval.llm.FilterSettings;
import dev.toolcoach.retrieval.llm.LlmFilterRetriever;
import dev.toolcoach.retrieval.llm.LlmToolFilter;
import dev.toolcoach.tasks.TaskExample;

import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The tools each query of a job is offered: the agent's catalogue (its own tools plus any distractors: other suites,
 * dataset schemas) whole, or, with retrieval on, the {@code k} tools the retriever chooses for the query. Applied once
 * per example before the job starts, so every rollout of a group sees the same tools and an LLM retriever is asked
 * once per query, not once per rollout; the chosen tools travel with the example ({@link TaskExample#tools()}) to
 * whichever athlete runs it.
 */
public final class QueryTools implements AutoCloseable {

    private final ToolCatalog catalogue;
    private final Optional<ToolRetrievalSettings> settings;
    private final ToolRetriever retriever;
    private final LexicalRetriever lexical;
    private final AtomicLong unmatched = new AtomicLong();
    private final int shadowed;
    private final Map<ToolSpec, Integer> order;

    /**
     * @param catalogue every tool the agent could be offered, its own first: a later tool with a name already taken is
     *                  left out (an agent calls tools by name), and counted in {@link #shadowed}
     * @param settings  empty: every query is offered the whole catalogue
     * @param model     the selecting model of the {@code llm} and {@code hybrid} modes
     * @throws IllegalArgumentException when a mode needs a model and none is given, or the catalogue is too large to list
     */
    public QueryTools(List<ToolSpec> catalogue, Optional<ToolRetrievalSettings> settings, Optional<OpenAiClient> model) {
        Map<String, ToolSpec> byName = new LinkedHashMap<>();
        catalogue.forEach(t -> byName.putIfAbsent(t.name(), t));
        this.shadowed = catalogue.size() - byName.size();
        this.catalogue = ToolCatalog.of(List.copyOf(byName.values()));
        this.order = new HashMap<>();
        for (int i = 0; i < this.catalogue.size(); i++) order.put(this.catalogue.get(i), i);
        if (this.catalogue.size() == 0) throw new IllegalArgumentException("the tool catalogue is empty");
        this.settings = Objects.requireNonNull(settings, "settings");
        ToolRetrievalSettings s = settings.orElse(null);
        if (s != null && s.mode().needsModel() && model.isEmpty()) {
            throw new IllegalArgumentException("tool retrieval '" + s.mode().label() + "' asks a model: give its endpoint");
        }
        this.lexical = s == null || s.mode() == RetrievalMode.LLM ? null : new LexicalRetriever(this.catalogue);
        this.retriever = s == null ? null : switch (s.mode()) {
            case LEXICAL -> lexical;
            case LLM -> new LlmFilterRetriever(this.catalogue, new LlmToolFilter(model.get(), FilterSettings.defaults()),
                    ToolRetrievalSettings.MAX_LLM_CATALOGUE);
            case HYBRID -> new HybridRetriever(lexical, new LlmToolFilter(model.get(), FilterSettings.defaults()), s.candidates());
        };
    }

    /** The examples, each offering the tools chosen for its query (the whole catalogue without retrieval). */
    public List<TaskExample> offer(List<TaskExample> examples) {
        return examples.stream().map(this::offer).toList();
    }

    /**
     * The example offering the tools chosen for its query, in catalogue order. A query the retriever finds nothing for (no word in common
     * with any tool) keeps no tools of its own, so it is offered the agent's own environment; {@link #unmatched} counts them.
     */
    public TaskExample offer(TaskExample example) {
        // the chosen tools in catalogue order, not score order: queries offered the same tools see the same prompt
        List<ToolSpec> tools = settings.map(s -> retriever.tools(example.query(), s.k()).stream()
                .sorted(Comparator.comparingInt(order::get)).toList()).orElse(catalogue.tools());
        if (tools.isEmpty()) unmatched.incrementAndGet();
        return example.withTools(tools);
    }

    /** Queries the retriever found no tool for so far. */
    public long unmatched() {
        return unmatched.get();
    }

    public int catalogueSize() {
        return catalogue.size();
    }

    /** Tools left out of the catalogue because an earlier one has their name. */
    public int shadowed() {
        return shadowed;
    }

    /**
     * The share of {@code offered} examples whose oracle calls only tools they were offered (1 without retrieval): how
     * often the retriever left the agent able to solve the query. Examples without oracle calls are not counted.
     */
    public static double oracleToolRecall(List<TaskExample> offered) {
        int counted = 0;
        int covered = 0;
        for (TaskExample e : offered) {
            Set<String> needed = new HashSet<>(e.oracleTools());
            if (needed.isEmpty()) continue;
            counted++;
            Set<String> names = new HashSet<>();
            e.tools().forEach(t -> names.add(t.name()));
            if (names.containsAll(needed)) covered++;
        }
        return counted == 0 ? 1.0 : (double) covered / counted;
    }

    @Override
    public void close() {
        if (lexical != null) lexical.close();
    }
}
