package dev.toolcoach.tasks.synthetic;

import dev.toolcoach.tasks.AnswerReward;
import dev.toolcoach.tasks.OracleStep;
import dev.toolcoach.tasks.SimpleTask;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tools.arithmetic.ArithmeticTools;
import dev.toolcoach.tools.spi.ToolException;
import dev.toolcoach.trace.ToolCall;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * ToolBrain's hello-world task: arithmetic word problems over the {@code arithmetic} suite. Roughly
 * a third need two calls (the second uses the first one's result). Gold answers come from the suite's
 * own methods, so they are exactly what the tools return.
 */
public final class ArithmeticTask {

    public static final String NAME = "arithmetic";

    private static final ArithmeticTools TOOLS = new ArithmeticTools();

    private enum Op {
        ADD("add", "plus", List.of("What is %s plus %s?", "Add %s and %s.", "Compute the sum of %s and %s.",
                "A box holds %s items and %s more are put in. How many items are in it now?")),
        SUBTRACT("subtract", "minus", List.of("What is %s minus %s?", "Take %2$s away from %1$s.",
                "How much is left of %s after spending %s?", "What is the difference %s - %s?")),
        MULTIPLY("multiply", "times", List.of("What is %s times %s?", "Multiply %s by %s.",
                "What is the product of %s and %s?", "How much do %2$s items cost at %1$s each?")),
        DIVIDE("divide", "divided by", List.of("What is %s divided by %s?", "Divide %s by %s.",
                "If %s is shared equally among %s people, how much does each get?", "What is the quotient of %s and %s?"));

        final String tool;
        final String word;
        final List<String> phrasings;

        Op(String tool, String word, List<String> phrasings) {
            this.tool = tool;
            this.word = word;
            this.phrasings = phrasings;
        }

        BigDecimal apply(BigDecimal a, BigDecimal b) {
            try {
                return switch (this) {
                    case ADD -> TOOLS.add(a, b);
                    case SUBTRACT -> TOOLS.subtract(a, b);
                    case MULTIPLY -> TOOLS.multiply(a, b);
                    case DIVIDE -> TOOLS.divide(a, b);
                };
            } catch (ToolException e) {
                throw new IllegalStateException("generated an invalid operation " + a + " " + word + " " + b, e);
            }
        }
    }

    private ArithmeticTask() {
    }

    /** {@code count} questions drawn with {@code seed}; the same arguments always give the same task. */
    public static Task create(int count, long seed) {
        Random random = new Random(seed);
        List<TaskExample> examples = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String id = NAME + "_" + i;
            examples.add(random.nextInt(3) == 0 ? twoSteps(id, random) : oneStep(id, random));
        }
        return new SimpleTask(NAME, List.of(ArithmeticTools.SUITE), examples, AnswerReward.numeric(1e-6));
    }

    private static TaskExample oneStep(String id, Random random) {
        Op op = Op.values()[random.nextInt(Op.values().length)];
        BigDecimal a = number(random);
        BigDecimal b = number(random);
        BigDecimal result = op.apply(a, b);
        String query = op.phrasings.get(random.nextInt(op.phrasings.size())).formatted(a.toPlainString(), b.toPlainString());
        return TaskExample.question(id, query, result.toPlainString(), List.of(
                OracleStep.call("I need " + a.toPlainString() + " " + op.word + " " + b.toPlainString() + ".", call(op, a, b)),
                answer(result)), Map.of());
    }

    /** (a op1 b) op2 c, where op1 keeps results exact and short so they can be passed on as written. */
    private static TaskExample twoSteps(String id, Random random) {
        Op first = Op.values()[random.nextInt(3)];
        Op second = Op.values()[random.nextInt(Op.values().length)];
        BigDecimal a = number(random);
        BigDecimal b = number(random);
        BigDecimal c = number(random);
        BigDecimal partial = first.apply(a, b);
        BigDecimal result = second.apply(partial, c);
        String query = random.nextBoolean()
                ? "Compute %s %s %s, then take the result %s %s.".formatted(a.toPlainString(), first.word, b.toPlainString(),
                        second.word, c.toPlainString())
                : "What is (%s %s %s) %s %s?".formatted(a.toPlainString(), first.word, b.toPlainString(), second.word,
                        c.toPlainString());
        return TaskExample.question(id, query, result.toPlainString(), List.of(
                OracleStep.call("First " + a.toPlainString() + " " + first.word + " " + b.toPlainString() + ".", call(first, a, b)),
                OracleStep.call("That gives " + partial.toPlainString() + "; now " + second.word + " " + c.toPlainString() + ".",
                        call(second, partial, c)),
                answer(result)), Map.of());
    }

    /**
     * The answer turn: the tool's result as it returned it. Its thought does not repeat the number: a quotient has up to 34
     * digits (the suite divides to DECIMAL128), one token each in a task-sized vocabulary, and written twice the turn
     * outgrew the scratch recipe's 64 new tokens, so a quarter of the oracle's own demonstrations ended without an answer.
     */
    private static OracleStep answer(BigDecimal result) {
        return OracleStep.answer("The tool's result is the answer.", result.toPlainString());
    }

    private static ToolCall call(Op op, BigDecimal a, BigDecimal b) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("a", a);
        args.put("b", b);
        return new ToolCall(op.tool, args);
    }

    /** A whole number up to 999, or (one time in four) an amount with two decimals; never zero. */
    private static BigDecimal number(Random random) {
        if (random.nextInt(4) == 0) {
            BigDecimal amount = BigDecimal.valueOf(1 + random.nextInt(99_999), 2).stripTrailingZeros();
            return amount.scale() < 0 ? amount.setScale(0) : amount; // 10, not 1E+1, in the question and the call
        }
        return BigDecimal.valueOf(1 + random.nextInt(999));
    }
}
