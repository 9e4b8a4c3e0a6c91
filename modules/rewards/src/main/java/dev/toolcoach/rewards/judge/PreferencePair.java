package dev.toolcoach.rewards.judge;

import dev.toolcoach.trace.Trace;

/** A DPO pair from one group: the judge preferred {@code chosen} over {@code rejected}. */
public record PreferencePair(Trace chosen, Trace rejected) {
}
