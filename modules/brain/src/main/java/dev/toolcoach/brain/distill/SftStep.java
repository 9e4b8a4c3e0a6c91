package dev.toolcoach.brain.distill;

import dev.toolcoach.learn.batch.ScoredTrace;

import java.util.List;

/** Supervised training of the student on the kept demonstrations; returns the tokens trained on. */
@FunctionalInterface
public interface SftStep {
    long train(List<ScoredTrace> demonstrations);
}
