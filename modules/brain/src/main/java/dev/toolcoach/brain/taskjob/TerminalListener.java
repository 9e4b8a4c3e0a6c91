package dev.toolcoach.brain.taskjob;

import dev.toolcoach.brain.run.ConsoleProgress;
import dev.toolcoach.brain.run.HeldOutLine;
import dev.toolcoach.brain.run.Progress;
import dev.toolcoach.brain.run.StepLine;
import dev.toolcoach.brain.run.TrainingProgress;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A job's progress on a console: a line per phase and evaluation, and a progress bar (elapsed, rate, ETA) for each
 * long piece of work, redrawn on a terminal, printed as periodic lines otherwise ({@link ConsoleProgress}).
 */
public final class TerminalListener implements JobListener {
    private final String task;
    private final PrintStream out;
    private final ConsoleProgress progress;
    private TrainingProgress bar;

    /** On {@code out}, drawn as a terminal when the console is one. */
    public TerminalListener(String task, PrintStream out) {
        this(task, out, ConsoleProgress.onTerminal());
    }

    public TerminalListener(String task, PrintStream out, boolean terminal) {
        this.task = task;
        this.out = out;
        this.progress = new ConsoleProgress(task, out, terminal);
    }

    @Override
    public void phase(String phase) {
        out.println("[" + task + "] " + phase);
    }

    @Override
    public void evaluated(String name, EvalRecord record) {
        out.printf(Locale.ROOT, "[%s] %s: accuracy %.1f%% (%d/%d, 95%% CI %.1f-%.1f%%), mean reward %.3f%s%n", task, name,
                100 * record.accuracy(), record.correct(), record.examples(), 100 * record.accuracyCi95().get(0),
                100 * record.accuracyCi95().get(1), record.meanReward(), record.training() == null ? ""
                        : String.format(Locale.ROOT, "; training queries pass@%d %.1f%%, pass@1 %.1f%%", record.training().k(),
                        100 * record.training().passAtK(), 100 * record.training().passAt1()));
    }

    @Override
    public Progress progress() {
        return progress;
    }

    @Override
    public synchronized void trainingStarted(long totalSteps, long stepsDone) {
        bar = new TrainingProgress(progress, "train", totalSteps, stepsDone);
    }

    @Override
    public synchronized void step(StepLine line) {
        if (bar != null) bar.accept(line);
    }

    @Override
    public synchronized void heldOut(HeldOutLine line) {
        progress.println(String.format(Locale.ROOT, "[%s] held-out after step %d: accuracy %.1f%% (%d/%d, 95%% CI %.1f-%.1f%%)", task, line.step(),
                100 * line.accuracy(), line.correct(), line.examples(), 100 * line.accuracyCi95().get(0),
                100 * line.accuracyCi95().get(1)));
    }

    @Override
    public synchronized void trainingEnded() {
        if (bar != null) bar.close();
        bar = null;
    }
}
