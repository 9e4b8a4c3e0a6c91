package dev.toolcoach.trace;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;

import java.io.IOException;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reading JSON that comes from outside (an HTTP body, a tool call's arguments, a dataset line): nesting is
 * limited before anything recursive sees it, and errors can be described without echoing the input.
 *
 * <p>Why a scan of our own: Jackson 2.15 has {@code StreamReadConstraints.maxNestingDepth}, but Akka 2.6's
 * {@code jackson-module-scala} pins this project to Jackson 2.13, which has no limit. The scan is one pass of
 * Jackson's own tokenizer (no recursion, so it cannot overflow the stack) counting open objects and arrays;
 * recursive readers and writers then only ever meet JSON at most {@code maxDepth} deep.
 */
public final class UntrustedJson {

    /** Deep enough for any tool schema, call or request; far from where recursive code would overflow the stack. */
    public static final int MAX_DEPTH = 64;

    private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");

    private UntrustedJson() {
    }

    /** The JSON is nested deeper than allowed. */
    public static final class TooDeep extends JsonParseException {
        TooDeep(JsonParser p, int maxDepth) {
            super(p, "JSON is nested deeper than " + maxDepth + " levels");
        }
    }

    /**
     * Throws {@link TooDeep} when {@code json} opens more than {@code maxDepth} objects and arrays inside each
     * other. Text that is not JSON passes: the real read reports it, and it cannot get deeper than the scan did.
     */
    public static void checkDepth(ObjectMapper mapper, String json, int maxDepth) throws TooDeep {
        try (JsonParser p = mapper.getFactory().createParser(json)) {
            int depth = 0;
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t.isStructStart() && ++depth > maxDepth) throw new TooDeep(p, maxDepth);
                if (t.isStructEnd()) depth--;
            }
        } catch (TooDeep e) {
            throw e;
        } catch (IOException notJson) {
            // the real read reports it, at the same place
        }
    }

    /** {@code mapper.readTree(json)} after {@link #checkDepth}. */
    public static JsonNode readTree(ObjectMapper mapper, String json, int maxDepth) throws JsonProcessingException {
        checkDepth(mapper, json, maxDepth);
        return mapper.readTree(json);
    }

    /** {@code mapper.readValue(json, type)} after {@link #checkDepth}. */
    public static <T> T readValue(ObjectMapper mapper, String json, Class<T> type, int maxDepth) throws JsonProcessingException {
        checkDepth(mapper, json, maxDepth);
        return mapper.readValue(json, type);
    }

    /**
     * Why the JSON could not be read, in one line and without any of its content (Jackson's own messages quote the
     * offending text and name Java types): where it failed (column, its line past the first; or the field path) and what kind of failure
     * it was; a value our own types refuse ({@link IllegalArgumentException} from a constructor) by its own message.
     */
    public static String reason(JsonProcessingException e) {
        if (e instanceof TooDeep) return e.getOriginalMessage();
        if (e instanceof StreamReadException) {
            if (e.getLocation() == null) return "not valid JSON";
            int line = e.getLocation().getLineNr();
            return "not valid JSON at " + (line > 1 ? "line " + line + ", " : "") + "column " + e.getLocation().getColumnNr();
        }
        if (e instanceof ValueInstantiationException v && v.getCause() instanceof IllegalArgumentException refused
                && refused.getMessage() != null) {
            String path = path(v);
            return (path.isEmpty() ? "" : path + ": ") + refused.getMessage().lines().findFirst().orElse("");
        }
        if (e instanceof JsonMappingException m) {
            String path = path(m);
            String what = m instanceof MismatchedInputException ? "is missing or has the wrong type" : "is not a valid value";
            return path.isEmpty() ? "the value " + what : "field " + path + " " + what;
        }
        return "not readable as JSON";
    }

    /** The field path of a mapping error, e.g. {@code messages[0].role}; names that are not plain identifiers show as {@code ?}. */
    private static String path(JsonMappingException e) {
        return e.getPath().stream()
                .map(r -> r.getFieldName() != null
                        ? "." + (PLAIN_NAME.matcher(r.getFieldName()).matches() ? r.getFieldName() : "?")
                        : "[" + r.getIndex() + "]")
                .collect(Collectors.joining())
                .replaceFirst("^\\.", "");
    }
}
