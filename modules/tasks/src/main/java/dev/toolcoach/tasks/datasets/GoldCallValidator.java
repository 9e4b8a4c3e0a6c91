package dev.toolcoach.tasks.datasets;

import dev.toolcoach.tasks.calling.CallChecker;
import dev.toolcoach.tasks.calling.CallingExample;
import dev.toolcoach.tasks.calling.CheckResult;
import dev.toolcoach.tasks.calling.PossibleCall;

import java.util.Optional;

/**
 * Decides whether an example's gold calls are valid: every expected function is offered, and the
 * oracle's calls pass the checker against the example's own schemas (required arguments present,
 * no undeclared ones, right types). Examples that fail are filtered out, as Tool-N1 does.
 */
final class GoldCallValidator {

    private static final CallChecker CHECKER = new CallChecker();

    private GoldCallValidator() {
    }

    /** Why the example's gold calls are invalid, or empty when they are valid. */
    static Optional<String> problem(CallingExample example) {
        if (example.expected().isEmpty()) return Optional.of("no expected call");
        for (PossibleCall p : example.expected()) {
            if (example.function(p.name()).isEmpty()) return Optional.of("calls undeclared function " + p.name());
        }
        CheckResult r = CHECKER.check(example, example.oracleCalls());
        return r.isCorrect() ? Optional.empty() : Optional.of("gold call fails its own schema: " + r);
    }
}
