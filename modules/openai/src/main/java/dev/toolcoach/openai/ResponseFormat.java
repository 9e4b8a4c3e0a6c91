package dev.toolcoach.openai;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Asks for a structured reply: {@code json_object} (any JSON object) or {@code json_schema}. */
public record ResponseFormat(String type, @JsonProperty("json_schema") JsonNode jsonSchema) {

    public static ResponseFormat jsonObject() {
        return new ResponseFormat("json_object", null);
    }

    public static ResponseFormat jsonSchema(String name, JsonNode schema) {
        ObjectNode wrapper = OpenAiJson.mapper().createObjectNode();
        wrapper.put("name", name);
        wrapper.set("schema", schema);
        return new ResponseFormat("json_schema", wrapper);
    }

    /** True when the reply must be JSON. */
    public boolean wantsJson() {
        return "json_object".equals(type) || "json_schema".equals(type);
    }
}
