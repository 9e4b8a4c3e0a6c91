package dev.toolcoach.brain.distill;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.agent.replay.ReplayGenerator;
import dev.toolcoach.tasks.TaskExample;

import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A task's oracle as teacher: replays each example's ideal turns ({@link TaskExample#oracleCompletions},
 * what the tasks module's OracleRollout replays), tokenised with the student's tokenizer so the
 * traces are the student's own ids.
 *
 * <p>With {@link Errors}, an imperfect teacher: on a share of the examples (drawn per example id with a seed, so the same
 * ones every run) it replays the solution of another example of the pool instead, mostly another tool, else the same
 * tool with another question's numbers. Each such demonstration is consistent in itself (its calls run on the real tools
 * and return what its answer says) and wrong for its question.
 */
public final class OracleTeacher implements Teacher {

    /**
     * @param rate share of the examples the teacher gets wrong, in [0, 1)
     * @param pool the examples whose solutions a wrong demonstration replays (at least two)
     * @param seed draws which examples are wrong and whose solution they replay
     */
    public record Errors(double rate, List<TaskExample> pool, long seed) {
        public Errors {
            if (!(rate >= 0 && rate < 1)) throw new IllegalArgumentException("the teacher's error rate must be in [0, 1), got " + rate);
            pool = List.copyOf(pool);
            if (rate > 0 && pool.size() < 2) throw new IllegalArgumentException("a teacher with errors needs a pool of at least two examples");
        }
    }

    private final String taskName;
    private final Student student;
    private final Errors errors;

    public OracleTeacher(String taskName, Student student) {
        this(taskName, student, new Errors(0, List.of(), 0));
    }

    public OracleTeacher(String taskName, Student student, Errors errors) {
        this.taskName = taskName;
        this.student = student;
        this.errors = errors;
    }

    @Override
    public String id() {
        return errors.rate() == 0 ? "oracle:" + taskName
                : String.format(Locale.ROOT, "oracle:%s:errors=%s:seed=%d", taskName, errors.rate(), errors.seed());
    }

    @Override
    public Generator generatorFor(TaskExample example, ActionFormat format, String systemPrompt) {
        return new ReplayGenerator(student.tokenizer(), student.stopTokenId(), solved(example).oracleCompletions(format), 0, 0L);
    }

    /** The example whose solution the teacher replays for {@code example}: its own, or on a wrong one another's. */
    TaskExample solved(TaskExample example) {
        if (errors.rate() == 0) return example;
        SplittableRandom draw = new SplittableRandom(errors.seed() * 1_000_003L + example.id().hashCode());
        if (draw.nextDouble() >= errors.rate()) return example;
        TaskExample other = errors.pool().get(draw.nextInt(errors.pool().size()));
        return other.id().equals(example.id()) ? errors.pool().get((errors.pool().indexOf(other) + 1) % errors.pool().size()) : other;
    }
}
