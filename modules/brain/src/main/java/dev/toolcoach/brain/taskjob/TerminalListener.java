package dev.toolcoach.brain.taskjob;

import dev.toolcoach.brain.run.StepLine;
import dev.toolcoach.brain.run.TrainingProgress;

import java.io.PrintStream;
import java.util.Locale;

/** A job's progress on a terminal: a line per phase and evaluation, a progress bar while training. */
public final class TerminalListener implements JobListener {
    private final String task;
    private final PrintStream out;
    private TrainingProgress bar;

    public TerminalListener(String task, PrintStream out) {
        this.task = task;
        this.out = out;
    }

    @Override
    public void phase(String phase) {
        out.println("[" + task + "] " + phase);
    }

    @Override
    public void evaluated(String name, EvalRecord record) {
        out.printf(Locale.ROOT, "[%s] %s: accuracy %.1f%% (%d examples), mean reward %.3f%n", task, name,
                100 * record.accuracy(), record.examples(), record.meanReward());
    }

    @Override
    public synchronized void trainingStarted(long totalSteps, long stepsDone) {
        bar = new TrainingProgress(task, totalSteps, stepsDone, out);
    }

    @Override
    public synchronized void step(StepLine line) {
        if (bar != null) bar.accept(line);
    }

    @Override
    public synchronized void trainingEnded() {
        if (bar != null) bar.close();
        bar = null;
    }
}
