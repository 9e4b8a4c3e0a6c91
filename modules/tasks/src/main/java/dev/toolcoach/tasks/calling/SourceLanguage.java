package dev.toolcoach.tasks.calling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.agent.TemplateJson;
import dev.toolcoach.trace.ToolCall;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The language a BFCL category's argument values are written in. Python categories take JSON values; in the Java
 * and JavaScript categories every value is a string of source text in that language, which BFCL reads with its
 * type converters ({@link JavaSyntax}, {@link JsSyntax}) before it checks it as it checks Python values.
 */
public enum SourceLanguage {
    PYTHON("Python 3", "Python 3 syntax"),
    JAVA("Java", "Java 8 SDK syntax"),
    JAVASCRIPT("JavaScript", "JavaScript syntax");

    private final String displayName;
    private final String syntax;

    SourceLanguage(String displayName, String syntax) {
        this.displayName = displayName;
        this.syntax = syntax;
    }

    public String displayName() {
        return displayName;
    }

    /** BFCL's error kind for a value that is not source text (JSON where a string was due). */
    CheckError notSourceText() {
        return this == JAVA ? CheckError.JAVA_TYPE_ERROR : CheckError.JS_TYPE_ERROR;
    }

    /** The value BFCL reads from source text for a parameter of the declared type (items of {@code itemType}). */
    Object read(String text, String type, String itemType) {
        return switch (this) {
            case JAVA -> JavaSyntax.read(text, type, itemType);
            case JAVASCRIPT -> JsSyntax.read(text, type, itemType);
            case PYTHON -> throw new IllegalStateException("Python values are not read from source text");
        };
    }

    /**
     * Why BFCL cannot check a value of this declared type in this language (its converter does not take the type, or
     * takes it without converting it, or an array declares no item type), or empty when it can. BFCL stops with an
     * error there; Python categories keep the checker's own reading of type names.
     */
    public Optional<String> unconvertible(String type, String itemType) {
        if (this == PYTHON) return Optional.empty();
        boolean java = this == JAVA;
        if (type == null || !(java ? JavaSyntax.TYPES : JsSyntax.TYPES).contains(type)) {
            return Optional.of("BFCL's " + displayName + " converter does not take type '" + type + "'");
        }
        if (java && JavaSyntax.UNCONVERTED.contains(type)) {
            return Optional.of("BFCL does not convert the " + displayName + " type '" + type + "'");
        }
        boolean sequence = java ? type.equals("Array") || type.equals("ArrayList") : type.equals("array");
        if (sequence && itemType == null) return Optional.of("the " + type + " declares no item type");
        return sequence ? unconvertible(itemType, null) : Optional.empty();
    }

    /** The call with each argument written as source text of this language, as BFCL expects it (Python: as it is). */
    public ToolCall inSource(ToolCall call, FunctionDoc doc) {
        if (this == PYTHON) return call;
        Map<String, Object> args = new LinkedHashMap<>();
        call.arguments().forEach((param, value) -> {
            String type = doc.declaredType(param);
            String itemType = doc.declaredItemType(param);
            args.put(param, this == JAVA ? JavaSyntax.write(value, type, itemType) : JsSyntax.write(value, type, itemType));
        });
        return new ToolCall(call.name(), args);
    }

    /**
     * The function as BFCL offers it to a model in a Java or JavaScript category: a note on the syntax in its
     * description, and every parameter typed {@code string} with its declared type (and item type, or a JavaScript
     * object's entries) named in its description. Python functions are offered as they are.
     */
    public FunctionDoc forPrompt(FunctionDoc doc) {
        if (this == PYTHON) return doc;
        Map<String, JsonNode> properties = new LinkedHashMap<>();
        doc.properties().forEach((param, schema) -> {
            ObjectNode p = schema.isObject() ? ((ObjectNode) schema).deepCopy() : JsonNodeFactory.instance.objectNode();
            String type = p.path("type").asText("");
            StringBuilder note = new StringBuilder(p.path("description").asText(""));
            note.append(type.equals("any")
                    ? " This parameter can be of any type of " + displayName + " object in string representation."
                    : " This is " + displayName + " " + type + " type parameter in string representation.");
            if (this == JAVA ? type.equals("ArrayList") || type.equals("Array") : type.equals("array")) {
                note.append(" The list elements are of type ").append(p.path("items").path("type").asText(""))
                        .append("; they are not in string representation.");
                p.remove("items");
            }
            if (this == JAVASCRIPT && type.equals("dict") && p.has("properties")) {
                note.append(" The dictionary entries have the following schema; they are not in string representation. ")
                        .append(TemplateJson.dumps(p.remove("properties")));
            }
            p.put("description", note.toString());
            p.put("type", "string");
            properties.put(param, p);
        });
        return new FunctionDoc(doc.name(), doc.description() + " Note that the provided function is in " + syntax + ".",
                properties, doc.required());
    }
}
