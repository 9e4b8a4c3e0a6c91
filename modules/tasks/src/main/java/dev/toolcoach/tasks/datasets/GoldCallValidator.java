package dev.toolcoach.tasks.datasets;

import dev.toolcoach.tasks.calling.CallChecker;
import dev.toolcoach.tasks.calling.CallingExample;
import dev.toolcoach.tasks.calling.CheckResult;
import dev.toolcoach.tasks.calling.FunctionDoc;
import dev.toolcoach.tasks.calling.PossibleCall;
import dev.toolcoach.tasks.calling.SourceLanguage;

import java.util.Optional;

/**
 * Decides whether an example's gold calls are valid: every expected function is offered, with types BFCL can read
 * in the example's language (else no checker can score it), and the oracle's calls pass the strict checker against the example's own schemas (required
 * arguments present, no undeclared ones, every value of its declared type). Training datasets drop examples
 * that fail either, as Tool-N1 does; BFCL keeps those that fail only their schema, as BFCL scores them.
 */
final class GoldCallValidator {

    private static final CallChecker STRICT = CallChecker.schemaStrict();

    private GoldCallValidator() {
    }

    /** Why the example's gold calls are invalid, or empty when they are valid. */
    static Optional<String> problem(CallingExample example) {
        return unscorable(example).or(() -> schemaProblem(example));
    }

    /**
     * Why no checker can score the example: no expected call, one to a function it does not offer, or (Java and
     * JavaScript) an expected parameter of a type BFCL's converter for the language does not take.
     */
    static Optional<String> unscorable(CallingExample example) {
        if (example.expected().isEmpty()) return Optional.of("no expected call");
        SourceLanguage language = example.category().language();
        for (PossibleCall p : example.expected()) {
            Optional<FunctionDoc> doc = example.function(p.name());
            if (doc.isEmpty()) return Optional.of("calls undeclared function " + p.name());
            for (String param : p.allowed().keySet()) {
                if (!doc.get().properties().containsKey(param)) continue;
                Optional<String> why = language.unconvertible(doc.get().declaredType(param), doc.get().declaredItemType(param));
                if (why.isPresent()) return Optional.of("parameter " + param + " of " + p.name() + ": " + why.get());
            }
        }
        return Optional.empty();
    }

    /** Why the gold calls break the example's own schemas, or empty when they keep to them. */
    private static Optional<String> schemaProblem(CallingExample example) {
        CheckResult r = STRICT.check(example, example.oracleCalls());
        return r.isCorrect() ? Optional.empty() : Optional.of("gold call fails its own schema: " + r);
    }
}
