package dev.toolcoach.cluster.weights;

import dev.toolcoach.cluster.protocol.AdapterReceiverProtocol.AdapterPart;
import dev.toolcoach.model.lora.AdapterWeights;

import java.util.List;

/**
 * The learner side's memory of the latest adapter, already cut into parts: what is broadcast when a version
 * is published and what is resent to an engine that asks to catch up. Not thread-safe: owned by one actor.
 */
public final class AdapterPublication {

    private final WeightsChunker chunker;
    private int latestVersion = -1;
    private List<AdapterPart> latestParts = List.of();

    public AdapterPublication(int maxChunkBytes) {
        this.chunker = new WeightsChunker(maxChunkBytes);
    }

    /** Cuts a new version into parts and keeps them; versions must increase, as engines drop older ones. */
    public List<AdapterPart> publish(AdapterWeights weights) {
        if (weights.version() <= latestVersion) {
            throw new IllegalArgumentException("adapter version " + weights.version()
                    + " is not newer than the published version " + latestVersion);
        }
        AdapterFlattening.Flat flat = AdapterFlattening.flatten(weights);
        latestParts = chunker.split(weights.version(), flat.floats()).stream()
                .map(chunk -> new AdapterPart(flat.layout(), chunk))
                .toList();
        latestVersion = weights.version();
        return latestParts;
    }

    /** The latest version's parts if it is newer than {@code sinceVersion}, else nothing. */
    public List<AdapterPart> latestSince(int sinceVersion) {
        return latestVersion > sinceVersion ? latestParts : List.of();
    }

    public int latestVersion() {
        return latestVersion;
    }
}
