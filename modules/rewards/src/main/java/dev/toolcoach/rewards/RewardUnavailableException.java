package dev.toolcoach.rewards;

/**
 * A reward that cannot work at all (a judge endpoint that is unreachable or refuses the key), as
 * opposed to one group it cannot score. {@link Reward} lets it through instead of dropping every
 * group one by one, so a misconfiguration stops the run with a clear message.
 */
public final class RewardUnavailableException extends RuntimeException {
    public RewardUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
