package dev.toolcoach.agent.adapt;

/** Outcomes of one tool in one context: how many calls succeeded and failed. */
public record Experience(long successes, long failures) {
    public static final Experience NONE = new Experience(0, 0);

    public Experience {
        if (successes < 0 || failures < 0) {
            throw new IllegalArgumentException("successes and failures must be >= 0, were " + successes + ", " + failures);
        }
    }

    public Experience plus(Experience other) {
        return new Experience(successes + other.successes, failures + other.failures);
    }

    public long calls() {
        return successes + failures;
    }
}
