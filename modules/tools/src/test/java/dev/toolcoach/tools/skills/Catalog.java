package dev.toolcoach.tools.skills;

import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.spi.Param;
import dev.toolcoach.tools.spi.ToolException;
import dev.toolcoach.tools.spi.ToolMethod;
import dev.toolcoach.tools.spi.ToolSuite;
import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.Turn;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** A small real tool suite for the skill tests (search, read by id, a computation) and traces made by running it. */
final class Catalog {

    record Hit(String id, String name) {
    }

    private static final Map<String, Map<String, Object>> ITEMS = new LinkedHashMap<>();

    static {
        item("sku-a1", "red kettle", "19.99");
        item("sku-a2", "red teapot", "24.50");
        item("sku-b1", "blue kettle", "21.00");
        item("sku-c1", "green lamp", "35.25");
        item("sku-d1", "desk lamp", "40.00");
    }

    private static void item(String id, String name, String price) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("name", name);
        m.put("price", new BigDecimal(price));
        ITEMS.put(id, m);
    }

    @ToolMethod(name = "find_items", description = "Find items whose name has the word. Returns id and name of each.")
    public List<Hit> findItems(@Param("a word of the name") String word) {
        return ITEMS.values().stream().filter(m -> ((String) m.get("name")).contains(word))
                .map(m -> new Hit((String) m.get("id"), (String) m.get("name"))).toList();
    }

    @ToolMethod(name = "get_item", description = "One item by id, with its price.")
    public Map<String, Object> getItem(@Param("the item id") String id) throws ToolException {
        Map<String, Object> m = ITEMS.get(id);
        if (m == null) throw new ToolException("no item " + id);
        return m;
    }

    @ToolMethod(name = "with_tax", description = "An amount with tax added at a rate.")
    public BigDecimal withTax(@Param("the amount") double amount, @Param(value = "tax rate, default 0.2", required = false) Double rate) {
        return BigDecimal.valueOf(amount * (1 + (rate == null ? 0.2 : rate))).setScale(2, RoundingMode.HALF_EVEN);
    }

    static ToolSuite suite() {
        return ToolSuite.builder("catalog").addAnnotated(new Catalog()).build();
    }

    static ToolExecutor executor(ToolSuite suite) {
        return new ToolExecutor(suite, ExecutorSettings.defaults());
    }

    /** A trajectory that calls the tools in order, each call's arguments made from the results so far; one call per turn. */
    static Trace run(ToolExecutor tools, String id, double reward, List<Function<List<ToolResult>, ToolCall>> calls) {
        List<ToolResult> results = new ArrayList<>();
        List<Turn> turns = new ArrayList<>();
        for (Function<List<ToolResult>, ToolCall> next : calls) {
            ToolCall call = next.apply(results);
            ToolResult result = tools.call(id, call).join();
            results.add(result);
            turns.add(new Turn("", "", new ParsedCompletion(null, List.of(call), null, null, null), result.text(),
                    List.of(result), List.<Message>of(), 0, 0));
        }
        turns.add(new Turn("", "", new ParsedCompletion(null, List.of(), null, "done", null), null, List.of(), List.of(), 0, 0));
        return new Trace(id, "g", "q-" + id, "query " + id, turns, null, "done", Termination.ANSWER, null, 0, 0,
                Map.of("reward", reward));
    }

    /** find_items(word) → get_item(the first hit's id) → with_tax(its price). */
    static Trace buyFirst(ToolExecutor tools, String id, String word) {
        return run(tools, id, 1.0, List.of(
                r -> new ToolCall("find_items", Map.of("word", word)),
                r -> new ToolCall("get_item", Map.of("id", ((Map<?, ?>) ((List<?>) r.get(0).structured()).get(0)).get("id"))),
                r -> new ToolCall("with_tax", Map.of("amount", ((Number) ((Map<?, ?>) r.get(1).structured()).get("price")).doubleValue()))));
    }
}
