package dev.toolcoach.retrieval.offer;

import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.retrieval.catalog.SchemaReader;
import dev.toolcoach.retrieval.catalog.SchemaSource;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.email.MailSourceException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Tools added to an agent's catalogue beside its own: the specifications of other built-in suites (served nowhere for
 * this job, so a call to one is an error the agent sees) and function schemas from BFCL question files. They make a
 * catalogue large and confusable, the situation tool retrieval is for.
 */
public final class Distractors {

    private Distractors() {
    }

    /**
     * @param suites      built-in suite names ({@link BuiltinSuites#NAMES})
     * @param schemaFiles BFCL question files (one JSON object per line with a {@code function} list)
     * @throws IllegalArgumentException naming an unknown suite or a missing file
     */
    public static List<ToolSpec> load(List<String> suites, List<Path> schemaFiles, BuiltinSuites.Options options) {
        List<ToolSpec> out = new ArrayList<>();
        for (String suite : suites) {
            if (!BuiltinSuites.NAMES.contains(suite)) {
                throw new IllegalArgumentException("unknown distractor suite '" + suite + "'; valid: " + BuiltinSuites.NAMES);
            }
            try (BuiltinSuites.Hosted hosted = BuiltinSuites.open(suite, options)) {
                out.addAll(hosted.suite().specs());
            } catch (MailSourceException e) {
                throw new IllegalArgumentException("cannot open distractor suite '" + suite + "': " + e.getMessage(), e);
            } catch (Exception e) {
                // only its specifications were read: a failure to release its resources changes nothing here
                throw new IllegalStateException("cannot close distractor suite '" + suite + "': " + e.getMessage(), e);
            }
        }
        SchemaReader reader = new SchemaReader();
        for (Path file : schemaFiles) {
            if (!Files.isRegularFile(file)) throw new IllegalArgumentException("distractor schema file " + file + ": not found");
            SchemaSource source = reader.bfcl(file);
            if (source.tools().isEmpty()) {
                throw new IllegalArgumentException("distractor schema file " + file + ": no function schema read ("
                        + source.skipped().size() + " lines skipped)");
            }
            out.addAll(source.tools());
        }
        return out;
    }
}
