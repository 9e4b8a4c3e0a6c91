package dev.toolcoach.agent;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;

import java.io.IOException;

/**
 * JSON as a chat template's {@code tojson} writes it (Python's {@code json.dumps} with Transformers' settings):
 * {@code ", "} and {@code ": "} separators, non-ASCII kept. Native formats write calls this way, so a call the
 * codec writes is byte for byte the call the model's template renders. {@link #dumps} is Python's default
 * {@code json.dumps}, which escapes non-ASCII.
 */
public final class TemplateJson {

    private static final ObjectWriter WRITER = new ObjectMapper().writer(new PythonSeparators());
    private static final ObjectWriter ASCII = WRITER.with(new PythonAsciiEscapes());

    private TemplateJson() {
    }

    /** {@code value}: a Jackson tree or plain Java values (Map, List, String, Number, Boolean, null). */
    static String write(Object value) {
        return write(WRITER, value);
    }

    /** {@code value} as Python's {@code json.dumps(value)} writes it: non-ASCII as lower-case {@code \\uXXXX} escapes. */
    public static String dumps(Object value) {
        return write(ASCII, value);
    }

    private static String write(ObjectWriter writer, Object value) {
        try {
            return writer.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("tool call arguments are not JSON values: " + e.getOriginalMessage(), e);
        }
    }

    private static final class PythonAsciiEscapes extends CharacterEscapes {
        private final int[] ascii = standardAsciiEscapesForJSON();

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return ch < 128 ? null : new SerializedString(String.format("\\u%04x", ch));
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
