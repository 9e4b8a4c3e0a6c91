package dev.toolcoach.rewards;

import java.util.List;
import java.util.Objects;

/** What a reward made of a group: a score per rollout, in group order, or a reason to drop the group. */
public sealed interface GroupOutcome permits GroupOutcome.Scored, GroupOutcome.Dropped {

    /** One finite score per rollout, in the group's order. */
    record Scored(List<Double> rewards) implements GroupOutcome {
        public Scored {
            rewards = List.copyOf(rewards);
        }

        public double get(int i) {
            return rewards.get(i);
        }
    }

    /** The group cannot be scored; the learner drops and counts it rather than guessing. */
    record Dropped(String reason) implements GroupOutcome {
        public Dropped {
            Objects.requireNonNull(reason, "reason");
        }
    }

    static GroupOutcome scored(List<Double> rewards) {
        return new Scored(rewards);
    }

    static GroupOutcome dropped(String reason) {
        return new Dropped(reason);
    }
}
