package dev.toolcoach.brain.distill;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.agent.replay.ReplayGenerator;
import dev.toolcoach.tasks.OracleStep;
import dev.toolcoach.tasks.TaskExample;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A task's oracle as teacher: replays each example's ideal turns ({@link TaskExample#oracleCompletions},
 * what the tasks module's OracleRollout replays), tokenised with the student's tokenizer so the
 * traces are the student's own ids.
 *
 * <p>With {@link Errors}, an imperfect teacher: on a share of the examples (drawn per example id with a seed, so the same
 * ones every run) it misreads its final answer, swapping two adjacent different digits (1234.56 becomes 1243.56). Its
 * calls stay the oracle's and run on the real tools, so a wrong demonstration still shows the skill (which tool, which
 * numbers from the question) and is wrong only where it copies the result into the answer: the careless teacher a
 * student trained on the true reward can beat. (Replaying another question's solution instead, an earlier model, taught
 * that answers need not come from the question and left the student below its teacher: docs/RECIPE.md.)
 */
public final class OracleTeacher implements Teacher {

    /**
     * @param rate share of the examples the teacher gets wrong, in [0, 1)
     * @param seed draws which examples are wrong and which digits a wrong answer swaps
     */
    public record Errors(double rate, long seed) {
        public static final Errors NONE = new Errors(0, 0);

        public Errors {
            if (!(rate >= 0 && rate < 1)) throw new IllegalArgumentException("the teacher's error rate must be in [0, 1), got " + rate);
        }
    }

    private final String taskName;
    private final Student student;
    private final Errors errors;

    public OracleTeacher(String taskName, Student student) {
        this(taskName, student, Errors.NONE);
    }

    public OracleTeacher(String taskName, Student student, Errors errors) {
        this.taskName = taskName;
        this.student = student;
        this.errors = errors;
    }

    @Override
    public String id() {
        return errors.rate() == 0 ? "oracle:" + taskName
                : String.format(Locale.ROOT, "oracle:%s:misread=%s:seed=%d", taskName, errors.rate(), errors.seed());
    }

    @Override
    public Generator generatorFor(TaskExample example, ActionFormat format, String systemPrompt) {
        List<String> completions = solution(example).stream().map(step -> step.completion(format)).toList();
        return new ReplayGenerator(student.tokenizer(), student.stopTokenId(), completions, 0, 0L);
    }

    /** The turns the teacher replays for {@code example}: the oracle's, or on a wrong one the same with its answer misread. */
    List<OracleStep> solution(TaskExample example) {
        if (errors.rate() == 0) return example.solution();
        SplittableRandom draw = new SplittableRandom(errors.seed() * 1_000_003L + example.id().hashCode());
        if (draw.nextDouble() >= errors.rate()) return example.solution();
        List<OracleStep> steps = new ArrayList<>(example.solution());
        int last = steps.size() - 1;
        OracleStep answer = steps.get(last);
        if (answer.answer() != null) steps.set(last, OracleStep.answer(answer.thought(), misread(answer.answer(), draw)));
        return steps;
    }

    /**
     * {@code answer} with two adjacent different digits swapped, the pair drawn from {@code draw}; unchanged when it has no
     * such pair (that demonstration stays right, and its reward says so).
     */
    static String misread(String answer, SplittableRandom draw) {
        List<Integer> pairs = new ArrayList<>();
        for (int i = 0; i + 1 < answer.length(); i++) {
            char a = answer.charAt(i);
            char b = answer.charAt(i + 1);
            if (Character.isDigit(a) && Character.isDigit(b) && a != b) pairs.add(i);
        }
        if (pairs.isEmpty()) return answer;
        int i = pairs.get(draw.nextInt(pairs.size()));
        char[] chars = answer.toCharArray();
        chars[i] = answer.charAt(i + 1);
        chars[i + 1] = answer.charAt(i);
        return new String(chars);
    }
}
