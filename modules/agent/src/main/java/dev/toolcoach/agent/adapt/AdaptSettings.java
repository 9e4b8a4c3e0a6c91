package dev.toolcoach.agent.adapt;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.trace.UntrustedJson;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * How ADAPT runs: the Beta prior, the groups of equivalent tools, the retirement flag's N, and how the choice among
 * equivalent tools is made. Read from a JSON file:
 * <pre>{"prior": {"alpha": 1, "beta": 1}, "equivalent": [["get_stock_price", "get_stock_price_backup"]], "retire_after": 20,
 *  "hint": false}</pre>
 * Every field is optional except {@code equivalent}; an unknown field, a wrong type or a bad value is an error naming
 * the file and the field.
 *
 * @param hint   false (the default): the tool layer routes a call to a group by Thompson sampling, the agent seeing one
 *               tool per group; true: the agent sees every tool and its system prompt names the tool sampling prefers
 *               in each group, with competences, and calls run as written (see {@link AdaptiveToolEnvironment})
 * @param source the file the settings were read from (named in errors found later, e.g. an unknown tool), or null
 */
public record AdaptSettings(ToolPreferences.Prior prior, EquivalentTools equivalent, int retireAfter, boolean hint, Path source) {
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final Set<String> FIELDS = Set.of("prior", "equivalent", "retire_after", "hint");

    public AdaptSettings {
        java.util.Objects.requireNonNull(prior, "prior");
        java.util.Objects.requireNonNull(equivalent, "equivalent");
        if (retireAfter < 1) throw new IllegalArgumentException("retire_after must be at least 1 episode, was " + retireAfter);
    }

    public static AdaptSettings of(List<List<String>> equivalent) {
        return new AdaptSettings(ToolPreferences.Prior.UNIFORM, new EquivalentTools(equivalent), 20, false, null);
    }

    /** These settings with the preference hint on or off. */
    public AdaptSettings withHint(boolean on) {
        return new AdaptSettings(prior, equivalent, retireAfter, on, source);
    }

    public static AdaptSettings read(Path file) {
        JsonNode root;
        try {
            root = UntrustedJson.readTree(JSON, Files.readString(file), UntrustedJson.MAX_DEPTH);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(file + ": " + UntrustedJson.reason(e));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the ADAPT settings " + file + ": " + e.getMessage());
        }
        if (root == null || !root.isObject()) throw new IllegalArgumentException(file + ": not a JSON object");
        for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) throw new IllegalArgumentException(file + ": unknown field '" + name + "' (known: " + FIELDS + ")");
        }
        try {
            ToolPreferences.Prior prior = ToolPreferences.Prior.UNIFORM;
            if (root.has("prior")) {
                JsonNode p = root.get("prior");
                prior = new ToolPreferences.Prior(number(p, "alpha", file, "prior.alpha"), number(p, "beta", file, "prior.beta"));
            }
            JsonNode eq = root.get("equivalent");
            if (eq == null || !eq.isArray()) throw new IllegalArgumentException(file + ": field equivalent must be a list of tool-name lists");
            List<List<String>> groups = new ArrayList<>();
            for (int i = 0; i < eq.size(); i++) {
                JsonNode g = eq.get(i);
                if (!g.isArray()) throw new IllegalArgumentException(file + ": field equivalent[" + i + "] must be a list of tool names");
                List<String> group = new ArrayList<>();
                for (int j = 0; j < g.size(); j++) {
                    if (!g.get(j).isTextual()) throw new IllegalArgumentException(file + ": field equivalent[" + i + "][" + j + "] must be a tool name");
                    group.add(g.get(j).asText());
                }
                groups.add(group);
            }
            int retire = 20;
            if (root.has("retire_after")) {
                JsonNode r = root.get("retire_after");
                if (!r.canConvertToInt() || !r.isIntegralNumber()) throw new IllegalArgumentException(file + ": field retire_after must be an integer");
                retire = r.asInt();
            }
            boolean hint = false;
            if (root.has("hint")) {
                if (!root.get("hint").isBoolean()) throw new IllegalArgumentException(file + ": field hint must be true or false");
                hint = root.get("hint").asBoolean();
            }
            return new AdaptSettings(prior, new EquivalentTools(groups), retire, hint, file);
        } catch (IllegalArgumentException e) {
            throw e.getMessage().startsWith(file.toString()) ? e : new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    /** The groups checked against the tools that exist; an unknown one is an error naming the settings file. */
    public void checkKnown(java.util.Collection<String> tools) {
        try {
            equivalent.checkKnown(tools);
        } catch (IllegalArgumentException e) {
            throw source == null ? e : new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
    }

    private static double number(JsonNode parent, String name, Path file, String field) {
        JsonNode v = parent.get(name);
        if (v == null || !v.isNumber()) throw new IllegalArgumentException(file + ": field " + field + " must be a number");
        return v.asDouble();
    }
}
