package dev.toolcoach.tasks;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.tasks.calling.CallMatchReward;
import dev.toolcoach.tasks.calling.CallingExample;
import dev.toolcoach.tasks.calling.FunctionDoc;
import dev.toolcoach.tasks.datasets.LoadResult;
import dev.toolcoach.trace.ToolCall;

import java.util.Locale;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A loaded function-calling dataset as a task of single steps: each example offers its own
 * functions, and the reward is Tool-N1's binary one on the first reply (a think block, then calls
 * that pass the BFCL-style checker). The oracle makes the expected calls.
 */
public final class FunctionCallingTask implements Task {

    private final String name;
    private final LoadResult<CallingExample> data;
    private final Map<String, CallingExample> byId = new LinkedHashMap<>();
    private final List<TaskExample> examples;

    public FunctionCallingTask(String name, LoadResult<CallingExample> data) {
        this(name, data, Map.of());
    }

    /**
     * @param fields each example's own fields by its id (a user's metadata), which rewards read beside its category
     */
    public FunctionCallingTask(String name, LoadResult<CallingExample> data, Map<String, Map<String, Object>> fields) {
        this.name = Objects.requireNonNull(name, "name");
        this.data = data;
        data.items().forEach(ex -> byId.put(ex.id(), ex));
        this.examples = examples(data, fields);
    }

    /** What loading the dataset gave: counts of malformed and filtered records, with their locations. */
    public LoadResult<CallingExample> loadReport() {
        return data;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public List<String> toolSuites() {
        return List.of();
    }

    @Override
    public List<TaskExample> examples() {
        return examples;
    }

    @Override
    public TraceReward reward() {
        // the task's gold and oracle turns are Tool-N1 text, so its rollouts are scored in Tool-N1 unless told otherwise
        return reward(ActionFormat.TOOL_N1);
    }

    /**
     * Tool-N1's reward on the first reply, its calls read in {@code format}: the Tool-N1 formats teach a think block
     * first and so require one; a family's native format (a model's own chat template) does not.
     */
    @Override
    public TraceReward reward(ActionFormat format) {
        boolean thinking = format == ActionFormat.TOOL_N1 || format == ActionFormat.TOOL_N1_COMPACT;
        CallMatchReward callReward = new CallMatchReward(format, thinking);
        return (trace, example) -> {
            CallingExample calling = byId.get(example.queryId());
            if (calling == null) throw new IllegalArgumentException("example " + example.queryId() + " is not part of task " + name);
            return trace.turns().isEmpty() ? 0.0 : callReward.score(calling, trace.turns().get(0).modelCompletion());
        };
    }

    /**
     * The loaded examples as task examples: their messages, the functions as tools, the gold calls as the oracle's one
     * step, the category and {@code fields} of its id as what rewards read.
     */
    public static List<TaskExample> examples(LoadResult<CallingExample> data, Map<String, Map<String, Object>> fields) {
        return data.items().stream().map(ex -> example(ex, fields.getOrDefault(ex.id(), Map.of()))).toList();
    }

    private static TaskExample example(CallingExample ex, Map<String, Object> fields) {
        List<ToolCall> gold = ex.oracleCalls();
        List<ToolSpec> tools = ex.functions().stream().map(FunctionCallingTask::spec).toList();
        Map<String, Object> read = new LinkedHashMap<>(fields);
        read.put("category", ex.category().name().toLowerCase(Locale.ROOT));
        return new TaskExample(ex.id(), ex.messages(), tools, ActionFormat.TOOL_N1.codec().writeCalls(gold),
                List.of(new OracleStep("The request maps to " + gold.size() + " call(s).", gold, null)), read);
    }

    private static ToolSpec spec(FunctionDoc doc) {
        return new ToolSpec(doc.name(), doc.description(), doc.toJsonSchema().get("parameters"));
    }
}
