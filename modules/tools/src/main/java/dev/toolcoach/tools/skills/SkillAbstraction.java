package dev.toolcoach.tools.skills;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.tools.spi.Tool;
import dev.toolcoach.tools.spi.ToolSuite;
import dev.toolcoach.trace.ToolResult;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32;

/**
 * Turns a recurring call pattern into a parameterised composite ({@link SkillDefinition}) by reading its data flow
 * off the occurrences:
 * <ul>
 *   <li>an argument whose value sits, in every occurrence, at one JSON Pointer of an earlier step's structured result
 *       is taken from there (the nearest earlier step, the first such place in document order);</li>
 *   <li>an argument equal in every occurrence to a parameter of another step reuses that parameter;</li>
 *   <li>any other argument becomes a parameter with the tool's own schema, required when the tool requires it and every
 *       occurrence gave it; when its value was always written in an earlier step's result text, the card says so.</li>
 * </ul>
 */
public final class SkillAbstraction {

    private static final int MAX_NAME = 64;
    /** Shorter values are too likely to occur in any text by chance to call it data flow. */
    private static final int MIN_FOUND_IN_CHARS = 3;

    private SkillAbstraction() {
    }

    private record ParameterInfo(String name, int step, List<JsonNode> values) {
    }

    /**
     * The composite for a pattern whose tools are all in {@code suite}, named unlike any of {@code takenNames}.
     *
     * @throws IllegalArgumentException when a step's tool is not in the suite (the caller counts it as a rejection)
     */
    public static SkillDefinition abstractPattern(CallPattern pattern, ToolSuite suite, Set<String> takenNames,
                                                  String source, double novelty, int minLength, int minSupport) {
        List<CallPattern.Occurrence> occurrences = pattern.occurrences();
        Map<String, ParameterInfo> parameters = new LinkedHashMap<>();
        ObjectNode properties = JsonNodeFactory.instance.objectNode();
        ArrayNode required = JsonNodeFactory.instance.arrayNode();
        List<SkillDefinition.Step> steps = new ArrayList<>();
        List<String> flows = new ArrayList<>();
        for (int k = 0; k < pattern.length(); k++) {
            String toolName = pattern.tools().get(k);
            ToolSpec spec = suite.tool(toolName).map(Tool::spec).orElseThrow(() -> new IllegalArgumentException(
                    "tool '" + toolName + "' is not in suite '" + suite.name() + "'"));
            Map<String, ArgumentSource> arguments = new LinkedHashMap<>();
            for (String argument : argumentNames(occurrences, k)) {
                List<JsonNode> values = new ArrayList<>();
                for (CallPattern.Occurrence o : occurrences) {
                    Object v = o.steps().get(k).call().arguments().get(argument);
                    values.add(o.steps().get(k).call().arguments().containsKey(argument) ? JsonValues.tree(v) : null);
                }
                boolean always = values.stream().allMatch(v -> v != null);
                ArgumentSource flow = always ? fromEarlierResult(occurrences, k, values) : null;
                if (flow instanceof ArgumentSource.FromStep from) {
                    flows.add(toolName + "'s " + argument + " is " + pattern.tools().get(from.step() - 1)
                            + "'s result at " + (from.pointer().isEmpty() ? "its whole value" : from.pointer()));
                    arguments.put(argument, from);
                    continue;
                }
                ParameterInfo shared = always ? sameAsParameter(parameters.values(), k, values) : null;
                if (shared != null) {
                    arguments.put(argument, new ArgumentSource.Parameter(shared.name(), 0));
                    continue;
                }
                String name = freeName(parameters.keySet(), argument, toolName, k);
                int foundIn = always ? foundInEarlierText(occurrences, k, values) : 0;
                parameters.put(name, new ParameterInfo(name, k, values));
                ObjectNode schema = spec.parameter(argument).filter(JsonNode::isObject).map(n -> (ObjectNode) n)
                        .orElseGet(JsonNodeFactory.instance::objectNode);
                schema.put("description", "step " + (k + 1) + " (" + toolName + "): " + schema.path("description").asText(argument));
                properties.set(name, schema);
                if (always && spec.required().contains(argument)) required.add(name);
                arguments.put(argument, new ArgumentSource.Parameter(name, foundIn));
            }
            steps.add(new SkillDefinition.Step(toolName, arguments));
        }
        ObjectNode schema = JsonNodeFactory.instance.objectNode();
        schema.put("type", "object");
        schema.set("properties", properties);
        if (!required.isEmpty()) schema.set("required", required);
        schema.put("additionalProperties", false);
        String name = name(pattern.tools(), takenNames);
        SkillDefinition.Provenance provenance = new SkillDefinition.Provenance(source,
                occurrences.stream().map(CallPattern.Occurrence::trajectoryId).toList(), pattern.support(), novelty,
                minLength, minSupport, 0, Instant.now().toString());
        return new SkillDefinition(name, description(pattern, suite, flows), suite.name(), schema, steps,
                SkillDefinition.Status.PENDING, provenance);
    }

    private static Set<String> argumentNames(List<CallPattern.Occurrence> occurrences, int k) {
        Set<String> names = new LinkedHashSet<>();
        occurrences.forEach(o -> names.addAll(o.steps().get(k).call().arguments().keySet()));
        return names;
    }

    private static ArgumentSource.FromStep fromEarlierResult(List<CallPattern.Occurrence> occurrences, int k, List<JsonNode> values) {
        for (int j = k - 1; j >= 0; j--) {
            JsonNode first = JsonValues.tree(occurrences.get(0).steps().get(j).structured());
            for (String pointer : JsonValues.pointersTo(first, values.get(0))) {
                boolean everywhere = true;
                for (int o = 1; o < occurrences.size() && everywhere; o++) {
                    JsonNode result = JsonValues.tree(occurrences.get(o).steps().get(j).structured());
                    everywhere = JsonValues.same(JsonValues.at(result, pointer), values.get(o));
                }
                if (everywhere) return new ArgumentSource.FromStep(j + 1, pointer);
            }
        }
        return null;
    }

    private static ParameterInfo sameAsParameter(Iterable<ParameterInfo> parameters, int k, List<JsonNode> values) {
        for (ParameterInfo p : parameters) {
            if (p.step() == k || p.values().contains(null)) continue;
            boolean equal = true;
            for (int o = 0; o < values.size() && equal; o++) equal = JsonValues.same(p.values().get(o), values.get(o));
            if (equal) return p;
        }
        return null;
    }

    private static int foundInEarlierText(List<CallPattern.Occurrence> occurrences, int k, List<JsonNode> values) {
        for (int j = 0; j < k; j++) {
            boolean everywhere = true;
            for (int o = 0; o < occurrences.size() && everywhere; o++) {
                JsonNode v = values.get(o);
                String text = v.isTextual() ? v.asText() : v.isNumber() ? v.asText() : null;
                ToolResult earlier = occurrences.get(o).steps().get(j);
                everywhere = text != null && text.length() >= MIN_FOUND_IN_CHARS && earlier.text().contains(text);
            }
            if (everywhere) return j + 1;
        }
        return 0;
    }

    private static String freeName(Set<String> taken, String argument, String tool, int k) {
        if (!taken.contains(argument)) return argument;
        String qualified = tool + "_" + argument;
        return taken.contains(qualified) ? qualified + "_" + (k + 1) : qualified;
    }

    private static String name(List<String> tools, Set<String> taken) {
        String base = String.join("_then_", tools);
        if (base.length() > MAX_NAME - 9) {
            CRC32 crc = new CRC32();
            crc.update(base.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            base = base.substring(0, MAX_NAME - 18) + "_" + Long.toHexString(crc.getValue());
        }
        String name = base;
        for (int i = 2; taken.contains(name); i++) name = base + "_" + i;
        return name;
    }

    private static String description(CallPattern pattern, ToolSuite suite, List<String> flows) {
        StringBuilder text = new StringBuilder("Runs ").append(String.join(", then ", pattern.tools()))
                .append(" in one call and returns the last one's result.");
        if (!flows.isEmpty()) text.append(" Passes results on by itself: ").append(String.join("; ", flows)).append('.');
        for (String tool : new LinkedHashSet<>(pattern.tools())) {
            suite.tool(tool).ifPresent(t -> text.append(' ').append(tool).append(": ").append(firstSentence(t.spec().description())));
        }
        return text.toString();
    }

    private static String firstSentence(String description) {
        int end = description.indexOf(". ");
        String sentence = end < 0 ? description : description.substring(0, end + 1);
        return sentence.endsWith(".") ? sentence : sentence + ".";
    }
}
