package dev.toolcoach.model.generate;

/**
 * A decoder's KV slots and what reusing them saved, since it started.
 *
 * @param slots         slots in all
 * @param decoding      slots whose sequence is being decoded
 * @param parked        slots kept for a conversation's next turn (or as a prefix other requests may copy)
 * @param cacheBytes    bytes the keys and values take on the device
 * @param prefillTokens context tokens prefilled (computed)
 * @param reusedTokens  context tokens a conversation's own slot already held (not computed again)
 * @param sharedTokens  context tokens copied from another slot that held the same prefix (a group's shared prompt)
 * @param evictions     parked slots taken back for another request before their conversation ended
 * @param decodeSteps   decode forwards
 * @param decodeRows    rows of decode forwards that decoded a token
 * @param idleRows      rows of decode forwards that rode along without a token (parked or free slots below a busy one)
 */
public record DecoderStats(int slots, int decoding, int parked, long cacheBytes, long prefillTokens, long reusedTokens,
                           long sharedTokens, long evictions, long decodeSteps, long decodeRows, long idleRows) {

    /** The decoder's running counts. */
    static final class Counter {
        long prefillTokens;
        long reusedTokens;
        long sharedTokens;
        long evictions;
        long decodeSteps;
        long decodeRows;
        long idleRows;

        DecoderStats snapshot(int slots, int decoding, int parked, long cacheBytes) {
            return new DecoderStats(slots, decoding, parked, cacheBytes, prefillTokens, reusedTokens, sharedTokens,
                    evictions, decodeSteps, decodeRows, idleRows);
        }
    }
}
