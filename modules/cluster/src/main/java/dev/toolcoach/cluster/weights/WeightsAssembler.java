package dev.toolcoach.cluster.weights;

import dev.toolcoach.cluster.protocol.AdapterReceiverProtocol.WeightsChunk;

/**
 * Reassembles the chunks of one adapter version, in any order. A chunk of a newer version abandons the
 * partial older one (only the latest adapter matters); chunks of versions already superseded are ignored.
 * Not thread-safe: owned by one actor.
 */
public final class WeightsAssembler {

    /** What one chunk did to the assembly. */
    public sealed interface Outcome {
        /** More chunks of this version are needed. */
        record Incomplete(int version, int received, int count) implements Outcome { }

        /** The whole adapter arrived and its checksum matches. */
        record Complete(int version, float[] adapter) implements Outcome { }

        /** The chunk was not used; the reason says why. */
        record Ignored(String reason) implements Outcome { }

        /** Every chunk arrived but the data is corrupt; the version must be fetched again. */
        record Corrupt(int version, String reason) implements Outcome { }
    }

    private int version = -1;
    private long latestComplete = -1;
    private float[] buffer;
    private boolean[] seen;
    private int received;
    private WeightsChunk first;

    public Outcome accept(WeightsChunk chunk) {
        if (chunk.version() <= latestComplete || chunk.version() < version) {
            return new Outcome.Ignored("version " + chunk.version() + " is superseded");
        }
        if (chunk.version() > version) {
            start(chunk);
        } else if (chunk.count() != first.count() || chunk.totalFloats() != first.totalFloats()
                || chunk.checksum() != first.checksum()) {
            return new Outcome.Ignored("chunk " + chunk.index() + " of version " + version + " disagrees with chunk "
                    + first.index() + " on layout or checksum");
        }
        if (seen[chunk.index()]) {
            return new Outcome.Ignored("chunk " + chunk.index() + " of version " + version + " is a duplicate");
        }
        System.arraycopy(chunk.payload(), 0, buffer, chunk.offset(), chunk.payload().length);
        seen[chunk.index()] = true;
        received++;
        return received < chunk.count() ? new Outcome.Incomplete(version, received, chunk.count()) : finish();
    }

    private void start(WeightsChunk chunk) {
        version = chunk.version();
        buffer = new float[chunk.totalFloats()];
        seen = new boolean[chunk.count()];
        received = 0;
        first = chunk;
    }

    private Outcome finish() {
        float[] adapter = buffer;
        long expected = first.checksum();
        buffer = null;
        seen = null;
        long actual = AdapterChecksum.of(adapter);
        if (actual != expected) {
            int corrupt = version;
            version = -1; // a resend of the same version starts a fresh assembly
            return new Outcome.Corrupt(corrupt, "checksum " + Long.toHexString(actual) + " != expected "
                    + Long.toHexString(expected));
        }
        latestComplete = version;
        return new Outcome.Complete(version, adapter);
    }
}
