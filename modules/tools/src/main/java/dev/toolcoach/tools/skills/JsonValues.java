package dev.toolcoach.tools.skills;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.toolcoach.tools.schema.ToolJson;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * JSON-shaped values as trees, compared as JSON means them: a number equals another of the same value whatever
 * its Java type (a result read back from {@code traces.jsonl} is a Double where the tool returned a BigDecimal).
 */
final class JsonValues {

    /** Most nodes of one result searched for a value, so a huge result cannot stall mining. */
    static final int MAX_NODES = 20_000;

    private static final Comparator<JsonNode> NUMERIC = (a, b) -> {
        if (a.isNumber() && b.isNumber()) return a.decimalValue().compareTo(b.decimalValue());
        return a.equals(b) ? 0 : 1;
    };

    private JsonValues() {
    }

    static JsonNode tree(Object value) {
        return value instanceof JsonNode node ? node : ToolJson.mapper().valueToTree(value);
    }

    static Object plain(JsonNode node) {
        return ToolJson.mapper().convertValue(node, Object.class);
    }

    static boolean same(JsonNode a, JsonNode b) {
        if (a == null || b == null) return a == b;
        return a.equals(NUMERIC, b);
    }

    static boolean same(Object a, Object b) {
        return same(tree(a), tree(b));
    }

    /** The value at a JSON Pointer, or a missing node. */
    static JsonNode at(JsonNode root, String pointer) {
        try {
            return root.at(JsonPointer.compile(pointer));
        } catch (IllegalArgumentException e) {
            return MissingNode.getInstance();
        }
    }

    /** Every JSON Pointer in {@code root} (document order, breadth first) whose value equals {@code value}. */
    static List<String> pointersTo(JsonNode root, JsonNode value) {
        List<String> found = new ArrayList<>();
        Deque<Map.Entry<String, JsonNode>> queue = new ArrayDeque<>();
        queue.add(Map.entry("", root));
        int visited = 0;
        while (!queue.isEmpty() && visited++ < MAX_NODES) {
            Map.Entry<String, JsonNode> entry = queue.poll();
            JsonNode node = entry.getValue();
            // the whole result as an argument is a pointer "" too: a step that passes the previous answer on
            if (same(node, value)) found.add(entry.getKey());
            if (node.isArray()) {
                for (int i = 0; i < node.size(); i++) queue.add(Map.entry(entry.getKey() + "/" + i, node.get(i)));
            } else if (node.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> field = it.next();
                    String escaped = field.getKey().replace("~", "~0").replace("/", "~1");
                    queue.add(Map.entry(entry.getKey() + "/" + escaped, field.getValue()));
                }
            }
        }
        return found;
    }
}
