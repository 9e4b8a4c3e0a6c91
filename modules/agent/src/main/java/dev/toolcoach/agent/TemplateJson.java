package dev.toolcoach.agent;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;

import java.io.IOException;

/**
 * JSON as a chat template's {@code tojson} writes it (Python's {@code json.dumps} with Transformers' settings):
 * {@code ", "} and {@code ": "} separators, non-ASCII kept. Native formats write calls this way, so a call the
 * codec writes is byte for byte the call the model's template renders.
 */
final class TemplateJson {

    private static final ObjectWriter WRITER = new ObjectMapper().writer(new PythonSeparators());

    private TemplateJson() {
    }

    /** {@code value}: a Jackson tree or plain Java values (Map, List, String, Number, Boolean, null). */
    static String write(Object value) {
        try {
            return WRITER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("tool call arguments are not JSON values: " + e.getOriginalMessage(), e);
        }
    }

    private static final class PythonSeparators extends MinimalPrettyPrinter {
        @Override
        public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException {
            g.writeRaw(": ");
        }

        @Override
        public void writeObjectEntrySeparator(JsonGenerator g) throws IOException {
            g.writeRaw(", ");
        }

        @Override
        public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
            g.writeRaw(", ");
        }
    }
}
