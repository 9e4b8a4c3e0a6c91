package dev.toolcoach.tools.spi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.math.BigDecimal;

/**
 * What a tool produced: the text the model reads and a JSON-shaped value for rewards
 * ({@code action_output}: Map, List, String, Number, Boolean or null).
 */
public record ToolOutput(String text, Object structured) {

    public ToolOutput {
        text = text == null ? "" : text;
    }

    public static ToolOutput text(String text) {
        return new ToolOutput(text, text);
    }

    /**
     * Renders a method's return value: strings and numbers as themselves (decimals in plain notation,
     * never {@code 1E+3}), anything else (records, maps, lists) as JSON text plus its JSON tree.
     */
    public static ToolOutput of(Object value, ObjectMapper mapper) {
        if (value instanceof ToolOutput output) return output;
        if (value == null) return new ToolOutput("null", null);
        if (value instanceof String s) return text(s);
        if (value instanceof BigDecimal d) return new ToolOutput(d.toPlainString(), d);
        if (value instanceof Number || value instanceof Boolean) return new ToolOutput(value.toString(), value);
        Object tree = mapper.convertValue(value, Object.class);
        try {
            return new ToolOutput(mapper.writeValueAsString(tree), tree);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("tool result of type " + value.getClass().getName()
                    + " cannot be written as JSON: " + e.getOriginalMessage(), e);
        }
    }
}
